import ReplicaCore
import TestSupport

/// Two in-memory replicas of `drawings` taken through seeded random steps, as the core's tests
/// of what a commit tells and stores walk them: each step a random one of the two runs a
/// statement of `workload`, and about one step in three its changes since the other's versions
/// go to the other through the wire format (so the delta carries its encoded block).
public struct TwoReplicaWalk {
    /// What a step just did to the replica it hands over.
    public enum Change: Sendable {
        /// A statement of the workload ran on it.
        case wrote
        /// The other's delta was applied to it; `storedFirst` are the received blocks a store
        /// would have written while it merged (empty unless the walk stores new blocks first).
        case applied(storedFirst: [(key: DocumentKey, block: ArraySlice<UInt8>)])
    }

    public static let collection = "drawings"

    public var replicas: [ReplicaState]
    public let workload: RandomWorkload
    /// Whether a delta is applied as a store applies a large one: checked, its new blocks taken
    /// to be stored first (`ReplicaState.newBlocks(of:)`), then merged with them stored.
    public let storesNewBlocksFirst: Bool
    private var rng: SplitMix64

    public init(seed: UInt64, workload: RandomWorkload, storesNewBlocksFirst: Bool = false) {
        rng = SplitMix64(seed: seed)
        self.workload = workload
        self.storesNewBlocksFirst = storesNewBlocksFirst
        replicas = [
            ReplicaState(peerID: PeerID(seed &* 2 &+ 1)), ReplicaState(peerID: PeerID(seed &* 2 &+ 2)),
        ]
    }

    /// Runs `steps` steps; `wall` gives each step's wall time. After every write and every apply,
    /// `check` gets what happened, the step, the replica as it is now (to take its unsaved
    /// events from, say) and as it was before the change. A delta the other replica refuses is
    /// an error, since it was made from that replica's own versions.
    public mutating func run(
        steps: Int, wall: (Int) -> Int64,
        _ check: (Change, Int, inout ReplicaState, ReplicaState) throws -> Void
    ) throws {
        for step in 0..<steps {
            let writer = Int(rng.next() % 2)
            let beforeWrite = replicas[writer]
            try workload.step(&replicas[writer], wall: wall(step), &rng)
            try check(.wrote, step, &replicas[writer], beforeWrite)
            guard rng.next() % 3 == 0 else { continue }
            let (from, to) = (writer, 1 - writer)
            let since = replicas[to].versions(collection: Self.collection, documentID: nil)
            let delta = try ReplicaDelta(
                decoding: replicas[from].changes(collection: Self.collection, documentID: nil, since: since)
                    .encoded())
            let beforeApply = replicas[to]
            var storedFirst: [(key: DocumentKey, block: ArraySlice<UInt8>)] = []
            let outcome = try replicas[to].apply(
                delta, wall: wall(step),
                storingNewBlocks: storesNewBlocksFirst
                    ? { blocks, _ in
                        storedFirst = blocks
                        return true
                    } : nil)
            guard case .applied = outcome else { throw RefusedDelta(step: step) }
            try check(.applied(storedFirst: storedFirst), step, &replicas[to], beforeApply)
        }
    }

    /// A delta made from the receiver's own versions was refused.
    public struct RefusedDelta: Error, CustomStringConvertible {
        public var step: Int
        public var description: String { "step \(step): a delta from the versions themselves was refused" }
    }
}

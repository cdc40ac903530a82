import ReplicaCore
import ReplicaCoreTestSupport
import TestSupport
import Testing

/// Merge laws (commutative, associative, idempotent) for registers, maps and whole documents,
/// on states that three replicas reach by writing concurrently with partial syncs in between.
@Suite struct DocumentStateLawTests {
    /// Three divergent states of document d0 after `steps` random writes and occasional pulls.
    static func divergentStates(scope: RandomWorkload.Scope, seed: UInt64, steps: Int = 120) throws
        -> [DocumentState]
    {
        var rng = SplitMix64(seed: seed)
        let workload = RandomWorkload(scope: scope)
        var replicas = (1...3).map { ReplicaState(peerID: PeerID(UInt64($0) * 0x1111)) }
        for step in 0..<steps {
            let index = Int(rng.next() % 3)
            try workload.step(&replicas[index], wall: Int64(step / 2), &rng)
            if rng.next() % 10 == 0 {
                let from = Int(rng.next() % 3)
                if from != index { try replicas[index].pull(from: replicas[from]) }
            }
        }
        return replicas.map { $0.document(DocumentKey(collection: "drawings", id: "d0")) ?? DocumentState() }
    }

    static let scopes: [RandomWorkload.Scope] = [.register, .map, .document]

    @Test(arguments: scopes)
    func mergeIsCommutativeAssociativeAndIdempotent(scope: RandomWorkload.Scope) throws {
        for seed in UInt64(1)...20 {
            let states = try Self.divergentStates(scope: scope, seed: seed)
            let (a, b, c) = (states[0], states[1], states[2])
            #expect(a.merged(with: b) == b.merged(with: a), "commutative, seed \(seed)")
            #expect(
                a.merged(with: b).merged(with: c) == a.merged(with: b.merged(with: c)),
                "associative, seed \(seed)")
            #expect(a.merged(with: a) == a, "idempotent, seed \(seed)")
            #expect(
                a.merged(with: b).merged(with: b) == a.merged(with: b), "idempotent on a merge, seed \(seed)")
            // The visible document depends only on the merged state, not on the merge order.
            #expect(a.merged(with: b).fields == b.merged(with: a).fields, "view, seed \(seed)")
        }
    }

    @Test func eventOrderDoesNotChangeTheDocument() throws {
        for seed in UInt64(100)...110 {
            let merged = try Self.divergentStates(scope: .document, seed: seed).reduce(DocumentState()) {
                $0.merged(with: $1)
            }
            var rng = SplitMix64(seed: seed)
            let shuffled = merged.events.values.shuffled(using: &rng)
            #expect(DocumentState(events: shuffled) == merged, "seed \(seed)")
            #expect(DocumentState(events: shuffled).fields == merged.fields, "seed \(seed)")
        }
    }
}

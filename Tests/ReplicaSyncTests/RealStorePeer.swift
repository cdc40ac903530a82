import EventRuntime
import ReplicaCore
import ReplicaStore
import ReplicaSync
import TestSupport

/// A peer as the app runs it, for tests over real sockets: a real replica in its own temporary
/// directory (fixed peer id, a wall clock that ticks per reading), its `ReplicaSyncAdapter`
/// forwarding local commits (a relay's committing in groups), and a `SyncNode` on the test's event loop and transport (sockets, or
/// an in-memory network on a manual-time loop).
final class RealStorePeer {
    let directory: TemporaryDirectory
    let replica: Replica
    let adapter: ReplicaSyncAdapter
    let node: SyncNode
    let peer: UInt64

    init(
        loop: any EventLoop, transport: any Transport, peer: UInt64, token: String = "team token",
        relay: Bool = false, servesOnlyRemoteSubscriptions: Bool = false
    ) throws {
        self.peer = peer
        directory = try TemporaryDirectory(prefix: "realstore-\(peer)")
        var wall: Int64 = 1_770_000_000_000 + Int64(peer)
        replica = try Replica(
            directory: directory.path,
            configuration: ReplicaConfiguration(
                wallClock: {
                    wall += 1
                    return wall
                }, peerID: PeerID(peer)))
        try replica.addSubscription(ReplicaSyncAdapter.drawings)
        adapter = ReplicaSyncAdapter(replica: replica)
        let configuration = SyncSessionConfiguration(
            databaseID: "default", peerID: peer, displayName: "peer \(peer)", token: token, encrypts: false,
            subscriptions: adapter.subscriptions)
        var options = SyncNode.Options()
        options.forwardsPresence = relay
        options.servesOnlyRemoteSubscriptions = servesOnlyRemoteSubscriptions
        node = SyncNode(
            loop: loop, transport: transport, replica: adapter, configuration: configuration,
            options: options,
            random: SplitMix64(seed: peer), makeSecrets: RealStorePeer.secrets(seed: peer))
        adapter.forwardLocalCommits(to: node)
        // As `serve` wires a relay: a loop turn's deltas in one transaction, acknowledged after it.
        if relay { adapter.commitInGroups(reportingTo: node) }
    }

    /// Deterministic handshake randomness per peer (distinct per connection).
    private static func secrets(seed: UInt64) -> () -> HandshakeSecrets {
        var generator = SplitMix64(seed: seed &* 7919)
        return { HandshakeSecrets(using: &generator) }
    }

    /// Writes `keys` into the `strokes` map of `document`, in one transaction.
    func writeStrokes(
        _ keys: [String], document: String = "drawing-1", value: (String) -> String = { "ink:\($0)" }
    ) throws {
        let strokes = Dictionary(uniqueKeysWithValues: keys.map { ($0, DocumentValue.string(value($0))) })
        try replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE",
            arguments: ["doc": .object(["_id": .string(document), "strokes": .object(strokes)])])
    }

    /// `SELECT * FROM drawings`: what two converged replicas hold identically.
    func drawings() throws -> [[String: DocumentValue]] {
        try replica.execute("SELECT * FROM drawings").documents
    }

    func strokeCount(document: String = "drawing-1") throws -> Int {
        try drawings().first { $0["_id"] == .string(document) }?["strokes"]?.objectValue?.count ?? 0
    }
}

/// Runs the loop until every peer holds the same drawings (and `extra` holds), up to 30 s.
/// Version vectors are compared first because they are cheap; equal vectors must then mean equal
/// documents, which is what is asserted.
func converge(_ peers: [RealStorePeer], on loop: some TestLoop, extra: () -> Bool = { true }) -> Bool {
    let sameVersions = loop.run(
        until: {
            let versions = peers.map { try? $0.replica.versions(collection: "drawings", documentID: nil) }
            return versions[0] != nil && !(versions[0]?.vectors.isEmpty ?? true)
                && versions.allSatisfy { $0 == versions[0] } && extra()
        }, timeout: .seconds(30))
    guard sameVersions, let first = try? peers[0].drawings() else { return false }
    return peers.dropFirst().allSatisfy { (try? $0.drawings()) == first }
}

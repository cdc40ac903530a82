import EventRuntime
import ReplicaCore
import ReplicaStore
import ReplicaSync
import TestSupport
import Testing

/// Compaction between real replicas over real sockets: a peer that was offline while the others
/// compacted what it lacks comes back, is sent the drawing's whole state, resurrects nothing
/// that was erased meanwhile and keeps what it drew offline.
@Suite struct RealStoreCompactionTests {
    /// One replica as the app runs it (idle steps on the loop), with a wall clock the test
    /// moves, and a node it can shut down and make again: a peer going offline and coming back.
    final class Peer {
        let directory: TemporaryDirectory
        let clock = ManualClock(1_770_000_000_000)
        let replica: Replica
        let peer: UInt64
        let loop: PollEventLoop
        let idleSteps: ReplicaIdleSteps
        private(set) var adapter: ReplicaSyncAdapter
        private(set) var node: SyncNode
        private var round: UInt64 = 0

        init(loop: PollEventLoop, peer: UInt64) throws {
            self.loop = loop
            self.peer = peer
            directory = try TemporaryDirectory(prefix: "compaction-\(peer)")
            var configuration = ReplicaConfiguration(peerID: PeerID(peer))
            // A peer unheard of for an hour stops holding compaction back (30 days in the app).
            configuration.peerRetentionMilliseconds = 3_600_000
            let clock = clock
            configuration.wallClock = {
                clock.now += 1
                return clock.now
            }
            replica = try Replica(directory: directory.path, configuration: configuration)
            try replica.addSubscription(ReplicaSyncAdapter.drawings)
            idleSteps = ReplicaIdleSteps(replica: replica, loop: loop)
            (adapter, node) = Self.node(replica: replica, peer: peer, loop: loop, round: 0)
        }

        private static func node(replica: Replica, peer: UInt64, loop: PollEventLoop, round: UInt64) -> (
            ReplicaSyncAdapter, SyncNode
        ) {
            let adapter = ReplicaSyncAdapter(replica: replica)
            let configuration = SyncSessionConfiguration(
                databaseID: "default", peerID: peer, displayName: "peer \(peer)", token: "team token",
                encrypts: false, subscriptions: adapter.subscriptions)
            var secrets = SplitMix64(seed: peer &* 7919 &+ round)
            let node = SyncNode(
                loop: loop, transport: SocketTransport(loop: loop), replica: adapter,
                configuration: configuration,
                random: SplitMix64(seed: peer &+ round), makeSecrets: { HandshakeSecrets(using: &secrets) })
            adapter.forwardLocalCommits(to: node)
            return (adapter, node)
        }

        /// Offline: the node says goodbye and goes; the replica stays open for writing.
        func goOffline() {
            node.shutdown()
        }

        /// Back: a new node, dialling `port`.
        func comeBack(dialling port: UInt16) {
            round += 1
            (adapter, node) = Self.node(replica: replica, peer: peer, loop: loop, round: round)
            node.connect(to: .tcp(host: "127.0.0.1", port: port))
        }

        func write(_ keys: [String]) throws {
            let strokes = Dictionary(
                uniqueKeysWithValues: keys.map { ($0, DocumentValue.string("ink:\($0)")) })
            try replica.execute(
                "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE",
                arguments: ["doc": .object(["_id": .string("drawing-1"), "strokes": .object(strokes)])])
        }

        func erase(_ keys: [String]) throws {
            let paths = keys.map { "strokes.`\($0)`" }.joined(separator: ", ")
            try replica.execute(
                "UPDATE drawings UNSET \(paths) WHERE _id = :id", arguments: ["id": .string("drawing-1")])
        }

        func strokes() -> Set<String> {
            let document = try? replica.execute("SELECT * FROM drawings").documents.first
            return Set(document?["strokes"]?.objectValue?.keys.map { $0 } ?? [])
        }

        var versions: DocumentVersions? {
            try? replica.versions(collection: "drawings", documentID: nil)
        }
    }

    @Test func aPeerOfflineAcrossACompactionGetsTheWholeStateAndKeepsWhatItDrewOffline() throws {
        let loop = try PollEventLoop(clock: .system)
        let a = try Peer(loop: loop, peer: 0xA1)
        let b = try Peer(loop: loop, peer: 0xB2)
        let c = try Peer(loop: loop, peer: 0xC3)
        guard case .tcp(_, let port) = try a.node.listen(on: .tcp(host: "127.0.0.1", port: 0)) else {
            Issue.record("no port")
            return
        }
        b.node.connect(to: .tcp(host: "127.0.0.1", port: port))
        c.node.connect(to: .tcp(host: "127.0.0.1", port: port))

        let erased = (0..<300).map { "s\($0)" }
        for batch in stride(from: 0, to: erased.count, by: 100) {
            try a.write(Array(erased[batch..<(batch + 100)]))
        }
        try b.write(["b-kept"])
        let everything = Set(erased + ["b-kept"])
        #expect(
            loop.run(
                until: { [a, b, c].allSatisfy { $0.strokes() == everything && $0.versions == a.versions } },
                timeout: .seconds(30)))

        // B goes offline and draws; meanwhile A erases everything it drew, C takes it, and A's
        // clock passes B's retention, so only C holds A's compaction back.
        b.goOffline()
        #expect(loop.run(until: { a.node.status.peers.count == 1 }, timeout: .seconds(30)))
        try b.write(["b-offline"])
        a.clock.now += 2 * 3_600_000
        try a.erase(erased)
        let bBefore = try #require(b.versions)
        #expect(
            loop.run(
                until: {
                    // (With both B and C past the retention time A may compact before C's ack
                    // arrives: nobody counts then. C's ack makes it count again.)
                    c.strokes() == ["b-kept"] && c.versions == a.versions
                        && a.replica.fullState(collection: "drawings", documentID: nil, since: bBefore) != nil
                        && a.replica.countedPeers == [PeerID(0xC3)]
                }, timeout: .seconds(30)),
            "A compacts the erased strokes, and C, which acknowledged the erase, counts")

        // B comes back: it must take the whole state (a delta would need the dropped removals).
        b.comeBack(dialling: port)
        let expected: Set<String> = ["b-kept", "b-offline"]
        #expect(
            loop.run(
                until: { [a, b, c].allSatisfy { $0.strokes() == expected } && a.versions == b.versions },
                timeout: .seconds(30)))
        #expect(
            b.replica.fullState(collection: "drawings", documentID: nil, since: DocumentVersions()) != nil)
        for peer in [a, b, c] { peer.node.shutdown() }
        loop.run(until: { false }, timeout: .milliseconds(100))

        // Reopened, B shows the same: the events it dropped did not stay on its disk.
        let reopened = try Replica.openReadOnly(directory: b.directory.path)
        let strokes = try reopened.execute("SELECT * FROM drawings").documents.first?["strokes"]?.objectValue
        #expect(Set(strokes?.keys.map { $0 } ?? []) == expected)
    }
}

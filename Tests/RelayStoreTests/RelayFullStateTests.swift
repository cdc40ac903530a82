import EventRuntime
import RelayStore
import ReplicaCore
import ReplicaStore
import ReplicaSync
import TestSupport
import Testing

/// Whole states through relays on one PostgreSQL, over real sockets: a client that compacted
/// history a relay lacks (it synced peer to peer, and both compacted) connects, and the relay
/// takes its whole state; what it dropped does not come back from the relay's rows, what the
/// relay's other clients wrote meanwhile stays, and the other relay's clients, live or coming
/// back from offline, are sent the whole state and converge.
extension RelayReplicaTests.Client {
    var versions: DocumentVersions? { try? replica.versions(collection: "drawings", documentID: nil) }
}

@Suite struct RelayFullStateTests {
    private let token = "relay replica test token"

    /// A replica that compacts as the app does (idle steps on the loop), with a wall clock the
    /// test moves, and a node it can make again: to dial a relay, or to listen for a peer.
    final class CompactingPeer {
        let clock = ManualClock(1_770_000_000_000)
        let replica: Replica
        let peer: UInt64
        let loop: PollEventLoop
        let token: String
        let idleSteps: ReplicaIdleSteps
        private(set) var adapter: ReplicaSyncAdapter
        private(set) var node: SyncNode

        init(directory: String, loop: PollEventLoop, peer: UInt64, token: String) throws {
            self.loop = loop
            self.peer = peer
            self.token = token
            var configuration = ReplicaConfiguration(peerID: PeerID(peer))
            // A peer unheard of for an hour stops holding compaction back (30 days in the app).
            configuration.peerRetentionMilliseconds = 3_600_000
            configuration.compactionMinimumEvents = 1
            let clock = clock
            configuration.wallClock = {
                clock.now += 1
                return clock.now
            }
            replica = try Replica(directory: directory, configuration: configuration)
            try replica.addSubscription(ReplicaSyncAdapter.drawings)
            idleSteps = ReplicaIdleSteps(replica: replica, loop: loop)
            (adapter, node) = Self.node(replica: replica, peer: peer, loop: loop, token: token)
        }

        private static func node(replica: Replica, peer: UInt64, loop: PollEventLoop, token: String) -> (
            ReplicaSyncAdapter, SyncNode
        ) {
            let adapter = ReplicaSyncAdapter(replica: replica)
            let node = SyncNode(
                loop: loop, transport: SocketTransport(loop: loop), replica: adapter,
                configuration: SyncSessionConfiguration(
                    databaseID: "team", peerID: peer, displayName: "peer \(peer)", token: token,
                    encrypts: false, subscriptions: adapter.subscriptions))
            adapter.forwardLocalCommits(to: node)
            return (adapter, node)
        }

        /// A new node in place of the one there (which says goodbye and goes).
        func renew() {
            node.shutdown()
            (adapter, node) = Self.node(replica: replica, peer: peer, loop: loop, token: token)
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

        var strokes: Set<String> {
            let document = try? replica.execute("SELECT * FROM drawings").documents.first
            return Set(document?["strokes"]?.objectValue?.keys.map { $0 } ?? [])
        }

        var versions: DocumentVersions? { try? replica.versions(collection: "drawings", documentID: nil) }
    }

    /// Whether a replica took a whole state: only that (or compacting) gives it a compacted
    /// vector, and these clients never compact.
    private func tookWholeState(_ replica: Replica) -> Bool {
        replica.fullState(collection: "drawings", documentID: nil, since: DocumentVersions()) != nil
    }

    @Test func aClientThatCompactedAheadIsTakenAndBothRelaysClientsConverge() throws {
        let test = try PostgresTestLoop()
        let loop = test.loop
        let url = test.cluster.url(database: test.database)
        typealias Relay = RelayReplicaTests.Relay
        typealias Client = RelayReplicaTests.Client
        let relays = try [1, 2].map { try Relay(url: url, peer: UInt64($0), loop: loop, token: token) }
        var started = 0
        for relay in relays {
            relay.replica.start { failure in
                #expect(failure == nil)
                started += 1
            }
        }
        test.wait(for: "both relays") { started == 2 }
        guard case .tcp(_, let firstPort) = relays[0].endpoint else {
            Issue.record("no port")
            return
        }
        let directory = try TemporaryDirectory()
        // A draws through relay 1; C watches there; D and E watch through relay 2.
        let a = try CompactingPeer(directory: directory.path + "/a", loop: loop, peer: 0xA1, token: token)
        a.node.connect(to: relays[0].endpoint)
        let c = try Client(
            directory: directory.path + "/c", relay: relays[0].endpoint, loop: loop, token: token)
        let d = try Client(
            directory: directory.path + "/d", relay: relays[1].endpoint, loop: loop, token: token)
        var e: Client? = try Client(
            directory: directory.path + "/e", relay: relays[1].endpoint, loop: loop, token: token)
        let strokes = (0..<60).map { "s\($0)" }
        try a.write(strokes)
        test.wait(for: "everyone to hold the strokes") {
            [c, d, e].allSatisfy { $0?.strokes == Set(strokes) } && a.node.status.pendingDeltaCount == 0
        }

        // E goes offline; A leaves relay 1, and C draws there meanwhile.
        e?.node.shutdown()
        test.wait(for: "E to leave") { relays[1].node.status.peers.count == 1 }
        e = nil
        a.renew()
        try c.draw(["c-meanwhile"])
        test.wait(for: "C's stroke at relay 2") { d.strokes.contains("c-meanwhile") }

        // A and B sync peer to peer; relay 1 passes A's retention, so only B holds A's
        // compaction back. A erases half, B takes it, and both compact the erased strokes.
        let b = try CompactingPeer(directory: directory.path + "/b", loop: loop, peer: 0xB2, token: token)
        let aEndpoint = try a.node.listen(on: .tcp(host: "127.0.0.1", port: 0))
        b.node.connect(to: aEndpoint)
        test.wait(for: "B to hold A's strokes") { b.strokes == Set(strokes) }
        a.clock.now += 2 * 3_600_000
        let relayHeld = try #require(a.versions)
        try a.erase(Array(strokes.prefix(30)))
        let kept = Set(strokes.dropFirst(30))
        test.wait(for: "A and B to compact the erase") {
            b.strokes == kept && b.versions == a.versions
                && a.replica.fullState(collection: "drawings", documentID: nil, since: relayHeld) != nil
                && b.replica.fullState(collection: "drawings", documentID: nil, since: relayHeld) != nil
        }
        #expect(a.replica.countedPeers == [PeerID(0xB2)])

        // A comes back to relay 1: its compacted history is ahead of what relay 1 holds, so it
        // sends its whole state, and relay 1 takes it.
        b.node.shutdown()
        a.renew()
        a.node.connect(to: .tcp(host: "127.0.0.1", port: firstPort))
        let expected = kept.union(["c-meanwhile"])
        test.wait(for: "A, C and D to converge") {
            a.strokes == expected && c.strokes == expected && d.strokes == expected
                && a.node.status.isCaughtUp && a.node.status.pendingDeltaCount == 0
        }
        #expect(a.node.status.lastRefusal == nil, "\(String(describing: a.node.status.lastRefusal))")
        #expect(relays.allSatisfy { $0.node.status.lastRefusal == nil })
        #expect(relays.allSatisfy { $0.replica.unsavedDeltaCount == 0 })
        let check = try test.connected()
        let rows = try test.run(check, "SELECT count(*) FROM drawtogether_full_states")
        #expect(rows.int64(0, 0) == 1, "one whole state stored, once")
        // C and D were behind the compacted vector: their relays sent them the whole state.
        test.wait(for: "C and D to take the whole state") {
            tookWholeState(c.replica) && tookWholeState(d.replica)
        }
        test.wait(for: "A to hold C's stroke and the relays to hold A's") {
            a.versions == d.versions && c.versions == d.versions
        }

        // E comes back to relay 2, behind the compacted vector: it gets the whole state too,
        // and the erased strokes it held go.
        let back = try Client(
            directory: directory.path + "/e", relay: relays[1].endpoint, loop: loop, token: token)
        test.wait(for: "E to converge") { back.strokes == expected && back.versions == a.versions }
        #expect(tookWholeState(back.replica))

        // A relay started now reads the same document from the rows alone, and sends a newcomer
        // the whole state.
        let third = try Relay(url: url, peer: 3, loop: loop, token: token)
        var thirdStarted = false
        third.replica.start { failure in
            #expect(failure == nil)
            thirdStarted = true
        }
        test.wait(for: "the third relay") { thirdStarted }
        let newcomer = try Client(
            directory: directory.path + "/newcomer", relay: third.endpoint, loop: loop, token: token)
        test.wait(for: "the newcomer") { newcomer.strokes == expected && newcomer.versions == a.versions }
        #expect(tookWholeState(newcomer.replica))

        for node in relays.map(\.node) + [third.node, a.node, c.node, d.node, back.node, newcomer.node] {
            node.shutdown()
        }
        for relay in relays + [third] { relay.replica.close() }
    }
}

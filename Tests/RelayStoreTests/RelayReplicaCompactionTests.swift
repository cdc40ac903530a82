import EventRuntime
import MonotonicTime
import RelayStore
import ReplicaCore
import ReplicaStore
import ReplicaSync
import TestSupport
import Testing

/// Relays on one PostgreSQL compacting by themselves, over real sockets: what their clients
/// hold is written to the shared table, both relays compact the drawing once the erased
/// strokes are held by every client heard from, and a client that was offline across it (past
/// the retention time) comes back to the whole state, keeps what it drew offline, and gets no
/// erased stroke back.
@Suite struct RelayReplicaCompactionTests {
    private let token = "relay replica test token"
    typealias Relay = RelayReplicaTests.Relay
    typealias Client = RelayReplicaTests.Client

    /// Polls a query, running the loop between tries, until `condition` holds (20 s).
    private func wait(
        _ test: PostgresTestLoop, for what: String, _ sql: String, until condition: (PostgresRows) -> Bool
    ) throws {
        let check = try test.connected()
        defer { check.close() }
        let deadline = test.loop.now + .seconds(20)
        while test.loop.now < deadline {
            if condition(try test.run(check, sql)) { return }
            _ = test.loop.run(until: { false }, timeout: .milliseconds(50))
        }
        Issue.record("timed out waiting for \(what)")
    }

    private func rowCount(_ test: PostgresTestLoop) throws -> Int64 {
        try test.rowFigures("team", document: "drawing-1").rows
    }

    private func started(_ test: PostgresTestLoop, _ relays: [Relay], clock: ManualClock) {
        var count = 0
        for relay in relays {
            var configuration = RelayCompactionConfiguration(wallClock: { clock.now })
            // A client unheard of for an hour stops holding compaction back (30 days in `serve`).
            configuration.peerRetentionMilliseconds = 3_600_000
            configuration.minimumDroppedEvents = 1
            configuration.stepInterval = .milliseconds(20)
            configuration.documentInterval = .milliseconds(200)
            configuration.forgetInterval = .milliseconds(100)
            relay.replica.compaction = configuration
            relay.replica.start { failure in
                #expect(failure == nil)
                count += 1
            }
        }
        test.wait(for: "the relays") { count == relays.count }
    }

    /// Whether a replica took a whole state: these clients never compact, so only that gives
    /// them a compacted vector.
    private func tookWholeState(_ replica: Replica) -> Bool {
        replica.fullState(collection: "drawings", documentID: nil, since: DocumentVersions()) != nil
    }

    private func holdsCompactedDrawing(_ relay: Relay) -> Bool {
        (try? relay.replica.encodedFullState(
            for: SyncSubscription(collection: "drawings"), since: DocumentVersions().encoded())) != nil
    }

    @Test func aClientOfflineAcrossACompactionGetsTheWholeStateAndKeepsItsOfflineStrokes() throws {
        let test = try PostgresTestLoop()
        let loop = test.loop
        let url = test.cluster.url(database: test.database)
        let clock = ManualClock(1_770_000_000_000)
        let relays = try [1, 2].map { try Relay(url: url, peer: UInt64($0), loop: loop, token: token) }
        started(test, relays, clock: clock)
        let directory = try TemporaryDirectory()
        // A draws through relay 1; B watches through relay 2, and so does E until it goes offline.
        let a = try Client(
            directory: directory.path + "/a", relay: relays[0].endpoint, loop: loop, token: token)
        let b = try Client(
            directory: directory.path + "/b", relay: relays[1].endpoint, loop: loop, token: token)
        var e: Client? = try Client(
            directory: directory.path + "/e", relay: relays[1].endpoint, loop: loop, token: token)
        let strokes = (0..<40).map { "s\($0)" }
        try a.draw(strokes)
        test.wait(for: "everyone to hold the strokes") {
            [a, b, e].allSatisfy { $0?.strokes == Set(strokes) } && a.node.status.pendingDeltaCount == 0
        }
        try wait(
            test, for: "both relays to write what their three clients hold",
            "SELECT count(DISTINCT peer) FROM drawtogether_peer_versions WHERE document = 'drawing-1'"
        ) { $0.int64(0, 0) == 3 }
        #expect(relays.allSatisfy { $0.replica.compactionStatistics.compactions == 0 })

        // E goes offline and draws there; two hours pass, so the relays stop counting it.
        let eID = try #require(e).replica.peerID.rawValue
        e?.node.shutdown()
        test.wait(for: "E to leave") { relays[1].node.status.peers.count == 1 }
        try e?.draw(["e-offline-1", "e-offline-2"])
        e = nil
        clock.now += 2 * 3_600_000
        // Its row is forgotten; A's and B's are written again as they acknowledge.
        try wait(
            test, for: "E's row to be forgotten",
            "SELECT count(*) FROM drawtogether_peer_versions WHERE peer = \(Int64(bitPattern: eID))"
        ) { $0.int64(0, 0) == 0 }

        // A erases half and draws more; B follows.
        let drawn = try rowCount(test)
        let erased = Array(strokes.prefix(20))
        try a.replica.execute(
            "UPDATE drawings UNSET \(erased.map { "strokes.`\($0)`" }.joined(separator: ", ")) WHERE _id = :id",
            arguments: ["id": .string("drawing-1")])
        try a.draw(["after-1", "after-2"])
        let expected = Set(strokes.dropFirst(20)).union(["after-1", "after-2"])
        test.wait(for: "A and B to hold the erase") { a.strokes == expected && b.strokes == expected }

        // The relays compact by themselves: the rows shrink to the whole state, and both relays'
        // caches take it.
        try wait(
            test, for: "a compaction",
            """
            SELECT (SELECT count(*) FROM drawtogether_events WHERE document = 'drawing-1'),
                (SELECT count(*) FROM drawtogether_full_states WHERE document = 'drawing-1')
            """
        ) { $0.int64(0, 0) == 0 && $0.int64(0, 1) == 1 }
        test.wait(for: "both relays to hold the compacted drawing") {
            relays.allSatisfy(holdsCompactedDrawing)
        }
        let compactions = relays.map(\.replica.compactionStatistics)
        #expect(compactions.reduce(0) { $0 + $1.compactions } >= 1)
        #expect(compactions.reduce(0) { $0 + $1.droppedEvents } >= 40, "\(compactions)")
        #expect(try rowCount(test) * 10 < drawn)
        // A and B were counted: they are still sent deltas, not the whole state.
        try a.draw(["after-3"])
        let later = expected.union(["after-3"])
        test.wait(for: "B to hold A's next stroke") { b.strokes == later }
        #expect(!tookWholeState(a.replica) && !tookWholeState(b.replica))

        // E comes back: it gets the whole state, the erased strokes it held go, and what it drew
        // offline reaches everyone.
        let back = try Client(
            directory: directory.path + "/e", relay: relays[1].endpoint, loop: loop, token: token)
        let all = later.union(["e-offline-1", "e-offline-2"])
        test.wait(for: "E, A and B to converge") {
            back.strokes == all && a.strokes == all && b.strokes == all
                && back.node.status.pendingDeltaCount == 0
        }
        #expect(tookWholeState(back.replica))
        #expect(back.strokes.isDisjoint(with: erased))
        #expect(relays.allSatisfy { $0.node.status.lastRefusal == nil })

        // A relay started now reads the same drawing from the rows, and a newcomer gets it.
        let third = try Relay(url: url, peer: 3, loop: loop, token: token)
        started(test, [third], clock: clock)
        let newcomer = try Client(
            directory: directory.path + "/newcomer", relay: third.endpoint, loop: loop, token: token)
        test.wait(for: "the newcomer") { newcomer.strokes == all }

        for node in (relays + [third]).map(\.node) + [a.node, b.node, back.node, newcomer.node] {
            node.shutdown()
        }
        for relay in relays + [third] { relay.replica.close() }
    }
}

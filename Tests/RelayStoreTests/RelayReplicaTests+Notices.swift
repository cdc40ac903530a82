import EventRuntime
import ReplicaCore
import ReplicaStore
import ReplicaSync
import TestSupport
import Testing

@testable import RelayStore

extension RelayReplicaTests {
    /// Strokes that fit in a notice reach the other relay without a read; a stroke too large
    /// for NOTIFY is read by version vector; both converge, with strokes drawn after it inline again.
    @Test func strokesCrossInTheirNoticesAndALargeOneIsReadInstead() throws {
        let test = try PostgresTestLoop()
        let loop = test.loop
        let url = test.cluster.url(database: test.database)
        let relays = try [1, 2].map { try Relay(url: url, peer: UInt64($0), loop: loop, token: token) }
        var started = 0
        for relay in relays {
            relay.replica.start { failure in
                #expect(failure == nil)
                started += 1
            }
        }
        test.wait(for: "both relays") { started == 2 }
        let directory = try TemporaryDirectory()
        let clients = try relays.enumerated().map { index, relay in
            try Client(
                directory: directory.path + "/client\(index)", relay: relay.endpoint, loop: loop, token: token
            )
        }
        test.wait(for: "both clients") { clients.allSatisfy { $0.node.status.isCaughtUp } }

        for round in 0..<20 {
            try clients[0].draw(["a\(round)"])
            try clients[1].draw(["b\(round)"])
            _ = loop.run(until: { false }, timeout: .milliseconds(5))
        }
        test.wait(for: "the small strokes to cross") {
            clients.allSatisfy { $0.strokes.count == 40 } && clients[0].strokes == clients[1].strokes
        }
        for relay in relays {
            #expect(relay.replica.noticeStatistics.entered > 0)
            #expect(relay.replica.noticeStatistics.read == 0, "a stroke that fits in its notice was read")
        }

        // 5,000 bytes of ink do not fit in NOTIFY's 8,000 once hex-encoded: read instead.
        try clients[0].replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE_LOCAL_DIFF",
            arguments: [
                "doc": .object([
                    "_id": .string("drawing-1"),
                    "strokes": .object(["large": .string(String(repeating: "ink ", count: 1_250))]),
                ])
            ])
        test.wait(for: "the large stroke to cross") { clients[1].strokes.contains("large") }
        #expect(relays[1].replica.noticeStatistics.read >= 1)
        let entered = relays[1].replica.noticeStatistics.entered
        try clients[0].draw(["after"])
        test.wait(for: "the stroke after it") { clients[1].strokes.contains("after") }
        #expect(relays[1].replica.noticeStatistics.entered > entered)
        #expect(clients[0].strokes == clients[1].strokes)
        #expect(clients[0].strokes.count == 42)
        for node in relays.map(\.node) + clients.map(\.node) { node.shutdown() }
        for relay in relays { relay.replica.close() }
    }

    /// Rows of one peer committed out of dot order (a client that moved between relays): the
    /// notice of the later rows finds a gap and reads, and the read stops at it; the notice that
    /// fills the gap is read too (not only entered), so the rows after the gap come in with it.
    @Test func theNoticeThatFillsAGapBringsTheRowsAfterIt() throws {
        let test = try PostgresTestLoop()
        let url = test.cluster.url(database: test.database)
        let relay = try RelayReplica(url: url, databaseID: "team", loop: test.loop, peerID: PeerID(2))
        var started = false
        relay.start { failure in
            #expect(failure == nil)
            started = true
        }
        test.wait(for: "the relay") { started }
        let subscription = SyncSubscription(collection: "drawings", documentID: "x")
        _ = relay.prepare(subscription)
        test.wait(for: "the document to be read") { relay.prepare(subscription) }

        // Three writes of one peer, each its own events.
        var writer = ReplicaState(peerID: PeerID(0x77))
        var writes: [ReplicaDelta] = []
        for key in ["s1", "s2", "s3"] {
            let before = writer.versions(collection: "drawings", documentID: "x")
            _ = try writer.execute(
                DQLParser.parse("INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE_LOCAL_DIFF"),
                arguments: [
                    "doc": .object(["_id": .string("x"), "strokes": .object([key: .string("ink")])])
                ],
                wall: 1)
            writes.append(writer.changes(collection: "drawings", documentID: "x", since: before))
        }
        let key = DocumentKey(collection: "drawings", id: "x")
        let other = try test.openStore(databaseID: "team")
        _ = try test.commit(other, [writes[0]])
        test.wait(for: "the first write") { relay.cache.document(key) != nil }
        #expect(relay.noticeStatistics.read == 0)

        // The third before the second: a gap, a read that stops at it.
        _ = try test.commit(other, [writes[2]])
        test.wait(for: "the read after the gap") { relay.noticeStatistics.read == 1 && !relay.isReading }
        #expect(relay.gapped.contains(key))
        // The second fills it: read again, and the third comes in with it.
        _ = try test.commit(other, [writes[1]])
        test.wait(for: "every write") {
            relay.cache.document(key)?.versionVector == writer.document(key)?.versionVector
        }
        #expect(relay.noticeStatistics.read == 2)
        #expect(relay.cache.document(key)?.fields == writer.document(key)?.fields)
        relay.close()
    }
}

import EventRuntime
import RelayStore
import ReplicaCore
import ReplicaStore
import ReplicaSync
import TestSupport
import Testing

/// Two relays on one PostgreSQL in this process, each a `SyncNode` over a `RelayReplica` on real
/// TCP sockets, and a client on each with a real store: strokes and presence cross the relays.
@Suite struct RelayReplicaTests {
    let token = "relay replica test token"

    final class Relay {
        let replica: RelayReplica
        let node: SyncNode
        let endpoint: SocketEndpoint

        init(
            url: String, peer: UInt64, loop: PollEventLoop, token: String,
            presenceTimeout: Duration = .seconds(30), idleLifetime: Duration = .seconds(60)
        ) throws {
            replica = try RelayReplica(
                url: url, databaseID: "team", loop: loop, peerID: PeerID(peer), idleLifetime: idleLifetime)
            var options = SyncNode.Options()
            options.forwardsPresence = true
            // As `serve --postgres`: a client is sent what it subscribes to.
            options.servesOnlyRemoteSubscriptions = true
            var configuration = SyncSessionConfiguration(
                databaseID: "team", peerID: peer, displayName: "relay \(peer)", token: token,
                encrypts: false,
                subscriptions: [SyncSubscription(collection: "drawings")])
            configuration.presenceTimeout = presenceTimeout
            node = SyncNode(
                loop: loop, transport: SocketTransport(loop: loop), replica: replica,
                configuration: configuration, options: options)
            endpoint = try node.listen(on: .tcp(host: "127.0.0.1", port: 0))
            let node = node
            let replica = replica
            replica.onDurable = { node.durable($0, changed: $1) }
            replica.onChanged = { node.replicaChangedOutsideSessions($0) }
            replica.liveSubscriptions = { node.replicatedSubscriptions }
            node.onPresence = { replica.publishPresence(.update($0)) }
            node.onPresenceExpired = { replica.publishPresence(.left(peerID: $0)) }
            replica.onAvailabilityChanged = { failure in
                node.announce(relayProblem: failure.map { _ in "database unreachable" })
            }
            replica.onRemotePresence = { change in
                switch change {
                case .update(let update): node.forward(presence: update)
                case .left(let peerID): node.forward(presenceLeft: peerID)
                }
            }
        }
    }

    final class Client {
        let replica: Replica
        let adapter: ReplicaSyncAdapter
        let node: SyncNode
        var presence: [PresenceUpdate] = []

        init(
            directory: String, relay: SocketEndpoint, loop: PollEventLoop, token: String,
            subscription: ReplicaSubscription = ReplicaSyncAdapter.drawings, listing: [String]? = nil
        ) throws {
            replica = try Replica(directory: directory)
            try replica.addSubscription(subscription)
            adapter = ReplicaSyncAdapter(replica: replica)
            node = SyncNode(
                loop: loop, transport: SocketTransport(loop: loop), replica: adapter,
                configuration: SyncSessionConfiguration(
                    databaseID: "team", peerID: replica.peerID.rawValue, displayName: "client", token: token,
                    encrypts: false, subscriptions: adapter.subscriptions))
            adapter.forwardLocalCommits(to: node)
            node.onPresence = { [unowned self] in presence.append($0) }
            if let listing {
                // As the app on a relay: these drawings, and the listing of the others.
                node.connect(
                    toFirstOf: [relay],
                    subscribing: listing.map { SyncSubscription(collection: "drawings", documentID: $0) },
                    listing: "drawings")
            } else {
                node.connect(to: relay)
            }
        }

        /// The relay's listing, by drawing id: name, and whether it is in the trash.
        var listed: [String: String] {
            node.listing(of: "drawings").mapValues {
                ($0.name ?? "?") + ($0.trashedAt == nil ? "" : " (trash)")
            }
        }

        func draw(_ keys: [String], in drawing: String = "drawing-1") throws {
            for key in keys {
                try replica.execute(
                    "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE_LOCAL_DIFF",
                    arguments: [
                        "doc": .object([
                            "_id": .string(drawing), "name": .string("Drawing \(drawing)"),
                            "strokes": .object([key: .string("ink")]),
                        ])
                    ])
            }
        }

        var strokes: Set<String> {
            let documents = (try? replica.execute("SELECT * FROM drawings").documents) ?? []
            return Set(documents.first?["strokes"]?.objectValue?.keys.map { $0 } ?? [])
        }

        func strokes(in drawing: String) -> Set<String> {
            let documents =
                (try? replica.execute(
                    "SELECT * FROM drawings WHERE _id = :id", arguments: ["id": .string(drawing)]
                ).documents) ?? []
            return Set(documents.first?["strokes"]?.objectValue?.keys.map { $0 } ?? [])
        }

        /// The drawings the replica holds, as the drawing list reads them.
        var drawingNames: Set<String> {
            let documents = (try? replica.execute("SELECT _id, name FROM drawings").documents) ?? []
            return Set(documents.compactMap { $0["name"]?.stringValue })
        }
    }

    @Test func strokesAndCoalescedPresenceCrossTwoRelays() throws {
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

        // Both draw 1,000 strokes at once, each through its own relay.
        for round in 0..<100 {
            try clients[0].draw((0..<10).map { "a\(round)-\($0)" })
            try clients[1].draw((0..<10).map { "b\(round)-\($0)" })
            _ = loop.run(until: { false }, timeout: .milliseconds(5))
        }
        test.wait(for: "the strokes to cross") {
            clients.allSatisfy { $0.strokes.count == 2_000 } && clients[0].strokes == clients[1].strokes
        }
        #expect(clients[0].strokes.count == 2_000)
        #expect(relays.allSatisfy { $0.replica.unsavedDeltaCount == 0 })

        // A third relay started now, with nothing in memory, serves all of it to a new client.
        let third = try Relay(url: url, peer: 3, loop: loop, token: token)
        var thirdStarted = false
        third.replica.start { failure in
            #expect(failure == nil)
            thirdStarted = true
        }
        test.wait(for: "the third relay") { thirdStarted }
        let newcomer = try Client(
            directory: directory.path + "/newcomer", relay: third.endpoint, loop: loop, token: token)
        test.wait(for: "the newcomer") { newcomer.strokes == clients[0].strokes }
        #expect(newcomer.strokes.count == 2_000)
        newcomer.node.shutdown()
        third.node.shutdown()
        third.replica.close()

        // A cursor moving 100 times as fast as it can reaches the other relay's client coalesced,
        // ending where it stopped.
        let peer = clients[0].replica.peerID.rawValue
        let startedAt = loop.now
        for x in 0..<100 {
            clients[0].node.publish(
                presence: PresenceUpdate(
                    peerID: peer, displayName: "painter", drawingID: "drawing-1",
                    cursor: .init(x: Int32(x), y: 3),
                    tool: "pen", colour: 2))
            _ = loop.run(until: { false }, timeout: .milliseconds(2))
        }
        test.wait(for: "the last cursor position") { clients[1].presence.last?.cursor.x == 99 }
        let elapsed = loop.now.since(startedAt)
        let seen = clients[1].presence.filter { $0.peerID == peer }
        #expect(seen.last?.displayName == "painter")
        // At most one update per 50 ms, plus the first and the last.
        let allowed = Int(elapsed / .milliseconds(50)) + 2
        #expect(seen.count <= allowed, "\(seen.count) updates in \(elapsed)")
        #expect(seen.count < 100)
        for node in relays.map(\.node) + clients.map(\.node) { node.shutdown() }
        for relay in relays { relay.replica.close() }
    }

    /// A relay with many drawings in PostgreSQL reads only the one a client subscribes to, drops
    /// it once nobody has subscribed to it for its idle lifetime, and reads it again (with what
    /// another relay stored meanwhile) when a client opens it again; a client of the whole
    /// collection still gets every drawing.
    @Test func aRelayReadsOnlyTheDrawingsSubscribedToAndDropsTheIdleOnes() throws {
        let test = try PostgresTestLoop()
        let loop = test.loop
        let url = test.cluster.url(database: test.database)
        let writerRelay = try Relay(url: url, peer: 1, loop: loop, token: token)
        let lazy = try Relay(url: url, peer: 2, loop: loop, token: token, idleLifetime: .milliseconds(400))
        var started = 0
        for relay in [writerRelay, lazy] {
            relay.replica.start { failure in
                #expect(failure == nil)
                started += 1
            }
        }
        test.wait(for: "both relays") { started == 2 }
        #expect(lazy.replica.residentDocumentCount == 0)
        let directory = try TemporaryDirectory()
        let writer = try Client(
            directory: directory.path + "/writer", relay: writerRelay.endpoint, loop: loop, token: token)
        test.wait(for: "the writer") { writer.node.status.isCaughtUp }
        let drawings = (0..<40).map { "d\($0)" }
        for drawing in drawings { try writer.draw((0..<5).map { "\(drawing)-s\($0)" }, in: drawing) }
        test.wait(for: "every drawing to be stored") {
            writer.node.status.pendingDeltaCount == 0 && writerRelay.replica.unsavedDeltaCount == 0
                && writerRelay.replica.commitStatistics.deltas > 0
        }
        #expect(lazy.replica.readStatistics.reads == 0, "the notices made the idle relay read")

        // A client of one drawing: the relay reads that one and holds nothing else.
        let reader = try Client(
            directory: directory.path + "/reader", relay: lazy.endpoint, loop: loop, token: token,
            subscription: ReplicaSubscription(collection: "drawings", documentID: "d7"))
        test.wait(for: "the reader's drawing") { reader.strokes(in: "d7").count == 5 }
        #expect(reader.node.status.isCaughtUp)
        #expect(lazy.replica.readStatistics.reads == 1)
        #expect(lazy.replica.readStatistics.events < 40)
        #expect(lazy.replica.residentDocumentCount == 1)
        #expect(reader.drawingNames == ["Drawing d7"])

        // Nobody has it open: it is dropped. Meanwhile a stroke reaches it through the other relay.
        reader.node.shutdown()
        test.wait(for: "the drawing to be dropped") { lazy.replica.residentDocumentCount == 0 }
        try writer.draw(["late"], in: "d7")
        test.wait(for: "the late stroke to be stored") {
            writer.node.status.pendingDeltaCount == 0 && writerRelay.replica.unsavedDeltaCount == 0
        }

        // Opened again: read again, with the late stroke.
        let again = try Client(
            directory: directory.path + "/reader-again", relay: lazy.endpoint, loop: loop, token: token,
            subscription: ReplicaSubscription(collection: "drawings", documentID: "d7"))
        test.wait(for: "the late stroke on the reopened drawing") { again.strokes(in: "d7").contains("late") }
        #expect(again.strokes(in: "d7").count == 6)
        #expect(lazy.replica.readStatistics.reads == 2)
        #expect(lazy.replica.residentDocumentCount == 1)

        // A client of the whole collection (the drawing list) gets every drawing.
        let everything = try Client(
            directory: directory.path + "/everything", relay: lazy.endpoint, loop: loop, token: token)
        test.wait(for: "every drawing on the lazy relay") { everything.drawingNames.count == 40 }
        #expect(everything.drawingNames == Set(drawings.map { "Drawing \($0)" }))
        #expect(everything.strokes(in: "d7").count == 6)
        #expect(lazy.replica.residentDocumentCount == 40)
        // The whole collection goes when its client does, but not the drawing still open.
        everything.node.shutdown()
        test.wait(for: "the collection to be dropped") { lazy.replica.residentDocumentCount == 1 }
        try writer.draw(["later"], in: "d7")
        test.wait(for: "the open drawing to stay live") { again.strokes(in: "d7").contains("later") }
        for node in [writerRelay.node, lazy.node, writer.node, again.node] { node.shutdown() }
        writerRelay.replica.close()
        lazy.replica.close()
    }

    /// A client with an empty store lists every drawing of a relay on PostgreSQL while the relay
    /// reads only the one it opens (and, for the listing, only the rows at the root, `name` and
    /// `trashed`); one opened later brings its strokes; drawings created, renamed and trashed
    /// through another relay reach the listing.
    @Test func aClientListsEveryDrawingWhileTheRelayReadsOnlyTheOneItOpens() throws {
        let test = try PostgresTestLoop()
        let loop = test.loop
        let url = test.cluster.url(database: test.database)
        let writerRelay = try Relay(url: url, peer: 1, loop: loop, token: token)
        let lazy = try Relay(url: url, peer: 2, loop: loop, token: token)
        var started = 0
        for relay in [writerRelay, lazy] {
            relay.replica.start { failure in
                #expect(failure == nil)
                started += 1
            }
        }
        test.wait(for: "both relays") { started == 2 }
        let directory = try TemporaryDirectory()
        let writer = try Client(
            directory: directory.path + "/writer", relay: writerRelay.endpoint, loop: loop, token: token)
        test.wait(for: "the writer") { writer.node.status.isCaughtUp }
        let drawings = (0..<40).map { "d\($0)" }
        for drawing in drawings { try writer.draw((0..<5).map { "\(drawing)-s\($0)" }, in: drawing) }
        test.wait(for: "every drawing to be stored") {
            writer.node.status.pendingDeltaCount == 0 && writerRelay.replica.unsavedDeltaCount == 0
                && writerRelay.replica.commitStatistics.deltas > 0
        }
        let storedEvents = try writer.replica.changes(
            collection: "drawings", documentID: nil, since: DocumentVersions()
        ).eventCount

        let lister = try Client(
            directory: directory.path + "/lister", relay: lazy.endpoint, loop: loop, token: token,
            listing: ["d7"])
        test.wait(for: "the listing and the opened drawing") {
            lister.listed.count == 40 && lister.strokes(in: "d7").count == 5
        }
        #expect(lister.listed == Dictionary(uniqueKeysWithValues: drawings.map { ($0, "Drawing \($0)") }))
        #expect(lister.node.status.isCaughtUp)
        #expect(lister.drawingNames == ["Drawing d7"])
        #expect(lazy.replica.readStatistics.reads == 1)
        #expect(lazy.replica.residentDocumentCount == 1)
        #expect(lazy.replica.listingReadStatistics.reads == 1)
        // Two events per drawing (the root and its name) of the eight stored.
        #expect(lazy.replica.listingReadStatistics.events == 2 * drawings.count)
        #expect(storedEvents == 8 * drawings.count)

        // Opened later, mid-session: its strokes come.
        lister.node.subscribeOnRelays([SyncSubscription(collection: "drawings", documentID: "d12")])
        test.wait(for: "the drawing opened later") { lister.strokes(in: "d12").count == 5 }
        #expect(lazy.replica.readStatistics.reads == 2)
        #expect(lazy.replica.residentDocumentCount == 2)

        // Through the other relay: a new drawing, one renamed, one moved to the trash (none of
        // them in the lazy relay's memory) and one open here renamed.
        try writer.draw(["first"], in: "fresh")
        try writer.replica.execute("UPDATE drawings SET name = 'Renamed' WHERE _id = 'd3'")
        try writer.replica.execute("UPDATE drawings SET trashed = 1700000000000 WHERE _id = 'd4'")
        try writer.replica.execute("UPDATE drawings SET name = 'Open one' WHERE _id = 'd7'")
        test.wait(for: "the listing to follow the other relay") {
            lister.listed["fresh"] == "Drawing fresh" && lister.listed["d3"] == "Renamed"
                && lister.listed["d4"] == "Drawing d4 (trash)" && lister.listed["d7"] == "Open one"
        }
        #expect(lister.listed.count == 41)
        #expect(lazy.replica.readStatistics.reads == 2)
        #expect(lazy.replica.residentDocumentCount == 2)
        #expect(lister.drawingNames == ["Open one", "Drawing d12"])
        for node in [writerRelay.node, lazy.node, writer.node, lister.node] { node.shutdown() }
        writerRelay.replica.close()
        lazy.replica.close()
    }

    /// A client that connects to relay 2 after a client of relay 1 last moved is told where that
    /// client is at once, from what relay 2 holds of other relays' presence; once that is older
    /// than the presence timeout it is no longer told.
    @Test func aClientConnectingLaterIsToldThePresenceOfAnotherRelaysClients() throws {
        let test = try PostgresTestLoop()
        let loop = test.loop
        let url = test.cluster.url(database: test.database)
        let first = try Relay(url: url, peer: 1, loop: loop, token: token)
        let second = try Relay(url: url, peer: 2, loop: loop, token: token, presenceTimeout: .seconds(2))
        var started = 0
        for relay in [first, second] {
            relay.replica.start { failure in
                #expect(failure == nil)
                started += 1
            }
        }
        test.wait(for: "both relays") { started == 2 }
        let directory = try TemporaryDirectory()
        func client(_ name: String, on relay: Relay) throws -> Client {
            let client = try Client(
                directory: directory.path + "/" + name, relay: relay.endpoint, loop: loop, token: token)
            test.wait(for: "client \(name)") { client.node.status.isCaughtUp }
            return client
        }
        let painter = try client("painter", on: first)
        let watcher = try client("watcher", on: second)
        func presence(of client: Client, x: Int32) -> PresenceUpdate {
            PresenceUpdate(
                peerID: client.replica.peerID.rawValue, displayName: "painter", drawingID: "drawing-1",
                cursor: .init(x: x, y: 5), tool: "pen", colour: 3)
        }
        painter.node.publish(presence: presence(of: painter, x: 12))
        test.wait(for: "the watcher to see the painter") { watcher.presence.last?.cursor.x == 12 }

        // Nobody moves; a client connecting to the second relay now is told at once.
        let latecomer = try client("latecomer", on: second)
        test.wait(for: "the latecomer to see the painter") {
            latecomer.presence.contains { $0.peerID == painter.replica.peerID.rawValue && $0.cursor.x == 12 }
        }

        // Past the second relay's presence timeout the painter's old position is not told, while a
        // fresh one of another client of the first relay is.
        test.wait(for: "the painter's presence to expire on the second relay") {
            second.node.livePresenceFromOutside.isEmpty
        }
        let other = try client("other", on: first)
        other.node.publish(presence: presence(of: other, x: 30))
        test.wait(for: "the second relay to hear of the other client") {
            second.node.livePresenceFromOutside.map(\.peerID) == [other.replica.peerID.rawValue]
        }
        let last = try client("last", on: second)
        test.wait(for: "the last client to see the other client") {
            last.presence.contains { $0.peerID == other.replica.peerID.rawValue }
        }
        #expect(!last.presence.contains { $0.peerID == painter.replica.peerID.rawValue })
        for node in [first.node, second.node] + [painter, watcher, latecomer, other, last].map(\.node) {
            node.shutdown()
        }
        first.replica.close()
        second.replica.close()
    }

    @Test func aClientIsToldWhileTheDatabaseIsAwayAndNothingItSentMeanwhileIsLost() throws {
        let cluster = try PostgresCluster.makePrivate()
        let url = cluster.url(database: try cluster.createDatabase())
        let loop = try PollEventLoop(clock: .system)
        func wait(_ what: String, _ condition: () -> Bool) {
            if !loop.run(until: condition, timeout: .seconds(30)) {
                Issue.record("timed out waiting for \(what)")
            }
        }
        let relay = try Relay(url: url, peer: 7, loop: loop, token: token)
        var started = false
        relay.replica.start { failure in
            #expect(failure == nil)
            started = true
        }
        wait("the relay") { started }
        let directory = try TemporaryDirectory()
        let client = try Client(
            directory: directory.path + "/c", relay: relay.endpoint, loop: loop, token: token)
        wait("the client") { client.node.status.isCaughtUp }
        try client.draw(["before"])
        wait("the first stroke") {
            client.node.status.pendingDeltaCount == 0 && relay.replica.unsavedDeltaCount == 0
        }

        try cluster.crash()
        wait("the relay's word") { client.node.status.relayProblem == "database unreachable" }
        try client.draw(["during"])
        wait("the stroke to reach the relay") { relay.replica.unsavedDeltaCount == 1 }
        #expect(client.node.status.pendingDeltaCount == 1, "acknowledged without a database")
        #expect(client.node.status.peers.count == 1)

        try cluster.start()
        wait("the database to be back") {
            client.node.status.relayProblem == nil && client.node.status.pendingDeltaCount == 0
        }
        #expect(relay.replica.isAvailable)
        // A relay started now finds both strokes in PostgreSQL.
        let late = try Relay(url: url, peer: 8, loop: loop, token: token)
        var lateStarted = false
        late.replica.start { _ in lateStarted = true }
        wait("the late relay") { lateStarted }
        let reader = try Client(
            directory: directory.path + "/r", relay: late.endpoint, loop: loop, token: token)
        wait("the reader") { reader.strokes == ["before", "during"] }
        for node in [relay.node, late.node, client.node, reader.node] { node.shutdown() }
        relay.replica.close()
        late.replica.close()
    }
}

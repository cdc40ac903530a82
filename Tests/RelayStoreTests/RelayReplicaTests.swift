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
    private let token = "relay replica test token"

    private final class Relay {
        let replica: RelayReplica
        let node: SyncNode
        let endpoint: SocketEndpoint

        init(url: String, peer: UInt64, loop: PollEventLoop, token: String) throws {
            replica = try RelayReplica(url: url, databaseID: "team", loop: loop, peerID: PeerID(peer))
            var options = SyncNode.Options()
            options.forwardsPresence = true
            node = SyncNode(
                loop: loop, transport: SocketTransport(loop: loop), replica: replica,
                configuration: SyncSessionConfiguration(
                    databaseID: "team", peerID: peer, displayName: "relay \(peer)", token: token,
                    encrypts: false,
                    subscriptions: [SyncSubscription(collection: "drawings")]),
                options: options)
            endpoint = try node.listen(on: .tcp(host: "127.0.0.1", port: 0))
            let node = node
            let replica = replica
            replica.onDurable = { node.durable($0, changed: $1) }
            replica.onChanged = { node.replicaChangedOutsideSessions($0) }
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

    private final class Client {
        let replica: Replica
        let adapter: ReplicaSyncAdapter
        let node: SyncNode
        var presence: [PresenceUpdate] = []

        init(directory: String, relay: SocketEndpoint, loop: PollEventLoop, token: String) throws {
            replica = try Replica(directory: directory)
            try replica.addSubscription(ReplicaSyncAdapter.drawings)
            adapter = ReplicaSyncAdapter(replica: replica)
            node = SyncNode(
                loop: loop, transport: SocketTransport(loop: loop), replica: adapter,
                configuration: SyncSessionConfiguration(
                    databaseID: "team", peerID: replica.peerID.rawValue, displayName: "client", token: token,
                    encrypts: false, subscriptions: adapter.subscriptions))
            adapter.forwardLocalCommits(to: node)
            node.onPresence = { [unowned self] in presence.append($0) }
            node.connect(to: relay)
        }

        func draw(_ keys: [String]) throws {
            for key in keys {
                try replica.execute(
                    "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE_LOCAL_DIFF",
                    arguments: [
                        "doc": .object([
                            "_id": .string("drawing-1"), "strokes": .object([key: .string("ink")]),
                        ])
                    ])
            }
        }

        var strokes: Set<String> {
            let documents = (try? replica.execute("SELECT * FROM drawings").documents) ?? []
            return Set(documents.first?["strokes"]?.objectValue?.keys.map { $0 } ?? [])
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

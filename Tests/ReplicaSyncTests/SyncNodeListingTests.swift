import EventRuntime
import ReplicaCore
import ReplicaStore
import ReplicaSync
import TestSupport
import Testing

/// A relay on its SQLite replica answers a client's listing request from its replica: the
/// client lists every drawing, holds only the ones it subscribes to (one more mid-session), and
/// follows renames, trashing and new drawings.
@Suite struct SyncNodeListingTests {
    @Test func aSQLiteRelayListsEveryDrawingAndSendsOnlyTheOnesSubscribedTo() throws {
        let loop = ManualEventLoop()
        let network = InMemoryNetwork(loop: loop)
        let relay = try RealStorePeer(
            loop: loop, transport: network, peer: 10, relay: true, servesOnlyRemoteSubscriptions: true)
        let endpoint = try relay.node.listen(on: .tcp(host: "127.0.0.1", port: 0))
        for index in 0..<5 {
            try relay.replica.execute(
                "INSERT INTO drawings DOCUMENTS (:doc)",
                arguments: [
                    "doc": .object([
                        "_id": .string("d\(index)"), "name": .string("Drawing \(index)"),
                        "strokes": .object(["s1": .string("ink"), "s2": .string("ink")]),
                    ])
                ])
        }
        let client = try RealStorePeer(loop: loop, transport: network, peer: 1)
        func subscription(_ id: String) -> SyncSubscription {
            SyncSubscription(collection: "drawings", documentID: id)
        }
        func listed() -> [String: String] {
            client.node.listing(of: "drawings").mapValues {
                ($0.name ?? "?") + ($0.trashedAt.map { " (trashed \($0))" } ?? "")
            }
        }
        func held() throws -> Set<String> {
            Set(try client.drawings().compactMap { $0["_id"]?.stringValue })
        }
        #expect(client.node.listingIsSettled(of: "drawings"))  // nothing asked for it
        client.node.connect(toFirstOf: [endpoint], subscribing: [subscription("d2")], listing: "drawings")
        #expect(!client.node.listingIsSettled(of: "drawings"))
        #expect(loop.run(until: { client.node.listingIsSettled(of: "drawings") }, timeout: .seconds(10)))
        #expect(listed().count == 5)
        #expect(
            loop.run(
                until: { listed().count == 5 && (try? client.strokeCount(document: "d2")) == 2 },
                timeout: .seconds(10)))
        #expect(listed() == Dictionary(uniqueKeysWithValues: (0..<5).map { ("d\($0)", "Drawing \($0)") }))
        #expect(try held() == ["d2"])

        client.node.subscribeOnRelays([subscription("d3")])
        #expect(loop.run(until: { (try? client.strokeCount(document: "d3")) == 2 }, timeout: .seconds(10)))
        #expect(try held() == ["d2", "d3"])

        // Changes on the relay, and a drawing another client creates, reach the listing.
        let other = try RealStorePeer(loop: loop, transport: network, peer: 2)
        other.node.connect(to: endpoint)
        #expect(loop.run(until: { other.node.status.isCaughtUp }, timeout: .seconds(10)))
        try other.replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc)",
            arguments: ["doc": .object(["_id": .string("fresh"), "name": .string("Fresh")])])
        try relay.replica.execute("UPDATE drawings SET name = 'Renamed' WHERE _id = 'd1'")
        try relay.replica.execute("UPDATE drawings SET trashed = 1700000000000 WHERE _id = 'd4'")
        #expect(
            loop.run(
                until: {
                    listed()["fresh"] == "Fresh" && listed()["d1"] == "Renamed"
                        && listed()["d4"] == "Drawing 4 (trashed 1700000000000)"
                }, timeout: .seconds(10)))
        // Deleted for good: gone from the listing.
        try relay.replica.execute("DELETE FROM drawings WHERE _id = 'd0'")
        #expect(loop.run(until: { listed()["d0"] == nil }, timeout: .seconds(10)))
        #expect(listed().count == 5)
        #expect(try held() == ["d2", "d3"])
        for node in [client.node, other.node, relay.node] { node.shutdown() }
    }

    /// `open NAME` waits for the listing only while some relay may still answer: once every
    /// relay of the list was tried and failed, asking is over (the redials go on).
    @Test func theListingIsSettledOnceEveryRelayWasTriedAndFailed() throws {
        let loop = ManualEventLoop()
        let network = InMemoryNetwork(loop: loop)
        let client = try RealStorePeer(loop: loop, transport: network, peer: 1)
        let nobody = [SocketEndpoint.tcp(host: "127.0.0.1", port: 1), .tcp(host: "127.0.0.1", port: 2)]
        client.node.connect(toFirstOf: nobody, subscribing: [], listing: "drawings")
        #expect(!client.node.listingIsSettled(of: "drawings"))
        #expect(loop.run(until: { client.node.listingIsSettled(of: "drawings") }, timeout: .seconds(60)))
        #expect(client.node.listing(of: "drawings").isEmpty)
        client.node.shutdown()
    }
}

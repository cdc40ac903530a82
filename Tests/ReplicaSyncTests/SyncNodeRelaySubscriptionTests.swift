import EventRuntime
import MonotonicTime
import TestSupport
import Testing

@testable import ReplicaSync

/// A relay (`servesOnlyRemoteSubscriptions`) sends each client what it subscribed to and no
/// more, and a change is offered only to the sessions that replicate it: what lets one relay
/// hold a thousand clients spread over a hundred drawings.
@Suite struct SyncNodeRelaySubscriptionTests {
    private let loop = ManualEventLoop()

    private func client(_ peer: UInt64, drawing: String?, network: InMemoryNetwork) -> (
        SyncNode, InMemorySyncReplica
    ) {
        makeSyncNode(peer: peer, loop: loop, transport: network) { configuration in
            configuration.subscriptions = [SyncSubscription(collection: "drawings", documentID: drawing)]
        }
    }

    @Test func aClientGetsOnlyItsDrawingAndAChangeIsOfferedOnlyToThoseWhoReplicateIt() throws {
        let network = InMemoryNetwork(loop: loop)
        let relayReplica = InMemorySyncReplica(peerID: 10)
        var options = SyncNode.Options()
        options.forwardsPresence = true
        options.servesOnlyRemoteSubscriptions = true
        let relay = SyncNode(
            loop: loop, transport: network, replica: relayReplica,
            configuration: SessionNetwork.configuration(peer: 10, token: "team token"), options: options,
            random: SplitMix64(seed: 10))
        let endpoint = try relay.listen(on: .tcp(host: "127.0.0.1", port: 0))
        relayReplica.write(document: "drawing-x", key: "x0", value: "x")
        relayReplica.write(document: "drawing-y", key: "y0", value: "y")

        let (onX, replicaX) = client(1, drawing: "drawing-x", network: network)
        let (onY, replicaY) = client(2, drawing: "drawing-y", network: network)
        let (onAll, replicaAll) = client(3, drawing: nil, network: network)
        for node in [onX, onY, onAll] { node.connect(to: endpoint) }
        #expect(loop.run(until: { [onX, onY, onAll].allSatisfy(\.status.isCaughtUp) }, timeout: .seconds(5)))
        #expect(replicaX.contents == ["drawings/drawing-x": ["x0": "x"]])
        #expect(replicaY.contents == ["drawings/drawing-y": ["y0": "y"]])
        #expect(replicaAll.contents == relayReplica.contents)

        let computedBefore = relayReplica.changesComputedCount
        replicaY.write(document: "drawing-y", key: "y1", value: "y")
        onY.localCommitted()
        #expect(loop.run(until: { replicaAll.contents == relayReplica.contents }, timeout: .seconds(5)))
        #expect(relayReplica.contents["drawings/drawing-y"]?["y1"] == "y")
        #expect(replicaX.contents == ["drawings/drawing-x": ["x0": "x"]])
        // Offered to the whole-collection client only (its delta, and one look after its ack found
        // nothing more), never to X's session (which would be two more, or four with the relay's
        // own subscription on it).
        #expect(relayReplica.changesComputedCount - computedBefore == 2)
        for node in [onX, onY, onAll, relay] { node.shutdown() }
    }

    @Test func subscriptionsOverlapWithinACollection() {
        let all = SyncSubscription(collection: "drawings")
        let x = SyncSubscription(collection: "drawings", documentID: "x")
        let y = SyncSubscription(collection: "drawings", documentID: "y")
        #expect(all.overlaps(x) && x.overlaps(all) && x.overlaps(x) && all.overlaps(all))
        #expect(!x.overlaps(y))
        #expect(!all.overlaps(SyncSubscription(collection: "notes")))
    }
}

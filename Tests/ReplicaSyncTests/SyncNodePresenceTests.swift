import EventRuntime
import ReplicaSync
import TestSupport
import Testing

/// Presence through a relay, over an in-memory network in virtual time: a peer that leaves
/// disappears from the relay's other clients at once, not after their presence timeout.
@Suite(.serialized) struct SyncNodePresenceTests {
    private let loop = ManualEventLoop()
    private let network: InMemoryNetwork
    /// Longer than the tests' (virtual) deadlines: only a forwarded departure can remove a cursor
    /// within them.
    private static let neverWithinATest: Duration = .seconds(600)

    init() {
        network = InMemoryNetwork(loop: loop)
    }

    /// What one node reported through its callbacks.
    private final class Seen {
        var presence: [PresenceUpdate] = []
        var expired: [UInt64] = []
    }

    private func makeNode(
        peer: UInt64, forwardsPresence: Bool = false, presenceTimeout: Duration = neverWithinATest
    )
        -> (SyncNode, Seen)
    {
        let (node, _) = makeSyncNode(
            peer: peer, loop: loop, transport: network, forwardsPresence: forwardsPresence
        ) {
            $0.presenceTimeout = presenceTimeout
        }
        let seen = Seen()
        node.onPresence = { seen.presence.append($0) }
        node.onPresenceExpired = { seen.expired.append($0) }
        return (node, seen)
    }

    private func waitFor(_ condition: () -> Bool) -> Bool {
        loop.run(until: condition, timeout: .seconds(20))
    }

    private static func cursor(of peer: UInt64, x: Int32) -> PresenceUpdate {
        PresenceUpdate(
            peerID: peer, displayName: "peer \(peer)", drawingID: "drawing-1", cursor: .init(x: x, y: 2),
            tool: "pen",
            colour: 3)
    }

    @Test func aPeerWhoQuitsVanishesFromTheRelaysOtherClientsAtOnce() throws {
        let (relay, seenByRelay) = makeNode(peer: 10, forwardsPresence: true)
        let (a, seenByA) = makeNode(peer: 1)
        let (b, _) = makeNode(peer: 2)
        let endpoint = try relay.listen(on: .tcp(host: "127.0.0.1", port: 0))
        a.connect(to: endpoint)
        b.connect(to: endpoint)
        #expect(
            waitFor {
                relay.status.peers.count == 2 && a.status.peers.count == 1 && b.status.peers.count == 1
            })
        b.publish(presence: Self.cursor(of: 2, x: 5))
        #expect(waitFor { seenByA.presence.last == Self.cursor(of: 2, x: 5) })
        b.shutdown()
        #expect(waitFor { seenByA.expired.contains(2) }, "A still shows B after B quit")
        #expect(seenByA.expired == [2])
        #expect(seenByRelay.expired == [2])
        #expect(a.status.peers.map(\.peerID) == [10])
        relay.shutdown()
        a.shutdown()
    }

    @Test func presenceThatGoesQuietAtTheRelayIsForgottenByItsClients() throws {
        // The relay forgets quickly, its clients never on their own: the departure is forwarded.
        let (relay, _) = makeNode(peer: 10, forwardsPresence: true, presenceTimeout: .milliseconds(300))
        let (a, seenByA) = makeNode(peer: 1)
        let (b, _) = makeNode(peer: 2)
        let endpoint = try relay.listen(on: .tcp(host: "127.0.0.1", port: 0))
        a.connect(to: endpoint)
        b.connect(to: endpoint)
        #expect(
            waitFor {
                relay.status.peers.count == 2 && a.status.peers.count == 1 && b.status.peers.count == 1
            })
        b.publish(presence: Self.cursor(of: 2, x: 5))
        #expect(waitFor { seenByA.expired.contains(2) })
        #expect(seenByA.presence.map(\.peerID) == [2])
        #expect(relay.status.peers.count == 2, "B is still connected; only its presence went quiet")
        relay.shutdown()
        a.shutdown()
        b.shutdown()
    }

    @Test func aNewConnectionLearnsWhoIsThereWithoutWaitingForCursorsToMove() throws {
        let (relay, seenByRelay) = makeNode(peer: 10, forwardsPresence: true)
        let (a, _) = makeNode(peer: 1)
        let (b, seenByB) = makeNode(peer: 2)
        let (c, seenByC) = makeNode(peer: 3)
        // A and B place their cursors before they are connected to anyone.
        a.publish(presence: Self.cursor(of: 1, x: 1))
        b.publish(presence: Self.cursor(of: 2, x: 2))
        let endpoint = try relay.listen(on: .tcp(host: "127.0.0.1", port: 0))
        a.connect(to: endpoint)
        #expect(waitFor { seenByRelay.presence.map(\.peerID) == [1] })
        b.connect(to: endpoint)
        #expect(waitFor { seenByB.presence == [Self.cursor(of: 1, x: 1)] })
        #expect(waitFor { Set(seenByRelay.presence.map(\.peerID)) == [1, 2] })
        // C joins later: the relay tells it what it holds, over the encrypted connection.
        c.connect(to: endpoint)
        #expect(waitFor { Set(seenByC.presence.map(\.peerID)) == [1, 2] })
        #expect(
            seenByC.presence.sorted { $0.peerID < $1.peerID } == [
                Self.cursor(of: 1, x: 1), Self.cursor(of: 2, x: 2),
            ])
        #expect(c.status.lastRefusal == nil && relay.status.lastRefusal == nil)
        for node in [relay, a, b, c] { node.shutdown() }
    }

    @Test func aPeerStillPresentThroughAnotherConnectionIsNotReportedGone() throws {
        let (relay, seenByRelay) = makeNode(peer: 10, forwardsPresence: true)
        let (a, seenByA) = makeNode(peer: 1)
        // The same peer twice, as when B reconnected before its old connection was noticed dead.
        let (oldB, _) = makeNode(peer: 2)
        let (newB, _) = makeNode(peer: 2)
        let endpoint = try relay.listen(on: .tcp(host: "127.0.0.1", port: 0))
        for node in [a, oldB, newB] { node.connect(to: endpoint) }
        #expect(
            waitFor {
                relay.status.peers.count == 3 && [a, oldB, newB].allSatisfy { $0.status.peers.count == 1 }
            })
        oldB.publish(presence: Self.cursor(of: 2, x: 5))
        #expect(waitFor { seenByA.presence.last == Self.cursor(of: 2, x: 5) })
        newB.publish(presence: Self.cursor(of: 2, x: 6))
        #expect(waitFor { seenByA.presence.last == Self.cursor(of: 2, x: 6) })
        oldB.shutdown()
        #expect(waitFor { relay.status.peers.count == 2 })
        // Anything the relay sent A about the old connection is on the wire before this update.
        newB.publish(presence: Self.cursor(of: 2, x: 7))
        #expect(waitFor { seenByA.presence.last == Self.cursor(of: 2, x: 7) })
        #expect(seenByA.expired.isEmpty)
        #expect(seenByRelay.expired.isEmpty)
        newB.shutdown()
        #expect(waitFor { seenByA.expired == [2] })
        #expect(seenByRelay.expired == [2])
        relay.shutdown()
        a.shutdown()
    }
}

import MonotonicTime
import ReplicaSync
import TestSupport
import Testing

@Suite struct SyncSessionTimingTests {
    @Test func aQuietConnectionSendsKeepalivesAndStaysOpen() {
        let network = SessionNetwork(nodeCount: 2, seed: 20)
        let link = network.connect(0, 1)
        network.runUntilQuiet()
        let deadline = link.sessions[0].nextDeadline
        #expect(deadline == network.now + .seconds(5))
        for _ in 0..<10 {
            network.tick(by: .seconds(5))
            #expect(network.runUntilQuiet() > 0)
        }
        #expect(link.sessions.allSatisfy { $0.isOpen })
    }

    @Test func aPeerSilentPastTheIdleTimeoutIsClosed() {
        let network = SessionNetwork(nodeCount: 2, seed: 21)
        let link = network.connect(0, 1)
        network.runUntilQuiet()
        link.closed[1] = true  // side 1's frames are lost from now on
        link.queues[0] = []
        for _ in 0..<4 { network.tick(by: .seconds(5)) }
        #expect(link.reasons[0] == .timedOut(phase: "sync"))
    }

    @Test func aHandshakeThatNeverCompletesTimesOut() {
        let network = SessionNetwork(nodeCount: 2, seed: 22)
        let link = network.connect(0, 1)
        link.queues = [[], []]
        network.tick(by: .seconds(9))
        #expect(link.reasons[1] == nil)
        network.tick(by: .seconds(1))
        #expect(link.reasons[1] == .timedOut(phase: "the handshake"))
    }

    @Test func presenceIsDeliveredAndForgottenWhenThePeerGoesQuiet() {
        let network = SessionNetwork(nodeCount: 2, seed: 23)
        let link = network.connect(0, 1)
        network.runUntilQuiet()
        let update = PresenceUpdate(
            peerID: 1, displayName: "peer 1", drawingID: "drawing-1", cursor: .init(x: 4, y: 2), tool: "pen",
            colour: 3,
            strokeInProgress: [.init(x: 4, y: 2), .init(x: 5, y: 2)])
        for action in link.sessions[0].publish(presence: update, now: network.now) {
            if case .send(let bytes) = action { link.queues[1].append(bytes) }
        }
        network.runUntilQuiet()
        #expect(link.presence[1][1] == update)
        #expect(link.sessions[1].livePresence == [update])
        // Keepalives keep the connection, but presence needs its own refresh.
        for _ in 0..<6 {
            network.tick(by: .seconds(5))
            network.runUntilQuiet()
        }
        #expect(link.presence[1][1] == nil)
        #expect(link.sessions[1].isOpen)
    }

    @Test func presenceDisappearsWhenTheConnectionEnds() {
        let network = SessionNetwork(nodeCount: 2, seed: 24)
        let link = network.connect(0, 1)
        network.runUntilQuiet()
        let update = PresenceUpdate(
            peerID: 1, displayName: "p", drawingID: "drawing-1", cursor: .init(x: 0, y: 0), tool: "pen",
            colour: 1)
        for action in link.sessions[0].publish(presence: update, now: network.now) {
            if case .send(let bytes) = action { link.queues[1].append(bytes) }
        }
        network.runUntilQuiet()
        #expect(link.presence[1][1] != nil)
        let actions = link.sessions[1].transportClosed()
        #expect(actions == [.presenceExpired(peerID: 1), .close(.transportClosed)])
    }
}

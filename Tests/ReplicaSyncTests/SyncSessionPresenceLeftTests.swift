import MonotonicTime
import ReplicaSync
import TestSupport
import Testing

/// `presenceLeft`: how a relay tells its clients that a forwarded peer is gone. The relay's
/// forwarding is played by the test (a `SyncNode` does it over sockets, see SyncNodeSocketTests).
@Suite struct SyncSessionPresenceLeftTests {
    /// A (node 0, peer 1) and B (node 2, peer 3) each connected to the relay R (node 1, peer 2).
    private func relayed(seed: UInt64) -> (SessionNetwork, a: SessionNetwork.Link, b: SessionNetwork.Link) {
        let network = SessionNetwork(nodeCount: 3, seed: seed)
        let a = network.connect(0, 1)
        let b = network.connect(2, 1)
        network.runUntilQuiet()
        return (network, a, b)
    }

    private static let cursorOfB = PresenceUpdate(
        peerID: 3, displayName: "peer 3", drawingID: "drawing-1", cursor: .init(x: 7, y: 1), tool: "pen",
        colour: 5)

    /// B publishes to the relay, which forwards it to A; A then shows B.
    private func showBAtA(_ network: SessionNetwork, a: SessionNetwork.Link, b: SessionNetwork.Link) {
        network.drive(b, side: 0) { $0.publish(presence: Self.cursorOfB, now: $1) }
        network.runUntilQuiet()
        #expect(b.presence[1][3] == Self.cursorOfB)
        network.drive(a, side: 1) { $0.publish(presence: Self.cursorOfB, now: $1) }
        network.runUntilQuiet()
        #expect(a.presence[0][3] == Self.cursorOfB)
    }

    @Test func aForwardedDepartureRemovesThePeerAtOnce() {
        let (network, a, b) = relayed(seed: 40)
        showBAtA(network, a: a, b: b)
        // B's connection to the relay ends: the relay's session forgets B and the relay says so.
        let closing = network.drive(b, side: 1) { session, _ in session.transportClosed() }
        #expect(closing == [.presenceExpired(peerID: 3), .close(.transportClosed)])
        network.drive(a, side: 1) { $0.publish(presenceLeft: 3, now: $1) }
        network.runUntilQuiet()
        #expect(a.presence[0][3] == nil)
        #expect(a.sessions[0].livePresence.isEmpty)
        #expect(a.sessions.allSatisfy { $0.isEstablished })
    }

    @Test func aDepartureIsReportedOnceAndOnlyForAPeerTheSessionShows() throws {
        let (network, a, b) = relayed(seed: 41)
        showBAtA(network, a: a, b: b)
        func departure(of peerID: UInt64) throws -> [UInt8] {
            try SyncMessage.presenceLeft(peerID: peerID).frame().encoded()
        }
        #expect(a.sessions[0].receive(try departure(of: 99), now: network.now) == [])
        #expect(a.sessions[0].receive(try departure(of: 1), now: network.now) == [])  // A itself
        #expect(a.sessions[0].livePresence == [Self.cursorOfB])
        #expect(
            a.sessions[0].receive(try departure(of: 3), now: network.now) == [.presenceExpired(peerID: 3)])
        #expect(a.sessions[0].receive(try departure(of: 3), now: network.now) == [])
        #expect(a.sessions[0].isEstablished)
        #expect(a.sessions[0].livePresence.isEmpty)
        // A later update shows B again.
        network.drive(a, side: 1) { $0.publish(presence: Self.cursorOfB, now: $1) }
        network.runUntilQuiet()
        #expect(a.sessions[0].livePresence == [Self.cursorOfB])
    }

    @Test func aDepartureIsNotSentBeforeTheHandshakeNorToThePeerItIsAbout() {
        let network = SessionNetwork(nodeCount: 2, seed: 42)
        let link = network.connect(0, 1)
        #expect(link.sessions[1].publish(presenceLeft: 9, now: network.now) == [])
        network.runUntilQuiet()
        #expect(link.sessions[1].publish(presenceLeft: 1, now: network.now) == [])  // the remote itself
        let sent = link.sessions[1].publish(presenceLeft: 9, now: network.now)
        #expect(sent.count == 1)
        guard case .send(let bytes)? = sent.first else {
            Issue.record("no frame sent: \(sent)")
            return
        }
        var decoder = FrameDecoder()
        decoder.append(bytes)
        let frame = try? decoder.nextFrame()
        #expect(frame.flatMap { try? SyncMessage(frame: $0) } == .presenceLeft(peerID: 9))
    }

    @Test func aDepartureTravelsSealedOnAnEncryptedConnection() {
        let network = SessionNetwork(nodeCount: 2, seed: 43)
        let link = network.connect(0, 1) { a, _ in a.encrypts = true }
        network.runUntilQuiet()
        let update = PresenceUpdate(
            peerID: 7, displayName: "p7", drawingID: "drawing-1", cursor: .init(x: 1, y: 1), tool: "pen",
            colour: 1)
        network.drive(link, side: 0) { $0.publish(presence: update, now: $1) }
        network.runUntilQuiet()
        #expect(link.presence[1][7] == update)
        network.drive(link, side: 0) { $0.publish(presenceLeft: 7, now: $1) }
        network.runUntilQuiet()
        #expect(link.presence[1][7] == nil)
        #expect(link.sessions.allSatisfy { $0.isEstablished })
    }

    @Test func aDepartureDuringTheHandshakeIsRefused() throws {
        let network = SessionNetwork(nodeCount: 2, seed: 44)
        let link = network.connect(0, 1)
        link.queues[1] = []
        network.inject(try SyncMessage.presenceLeft(peerID: 3).frame().encoded(), into: link, side: 1)
        #expect(link.reasons[1] == .unexpectedMessage("presenceLeft", phase: "the handshake"))
    }
}

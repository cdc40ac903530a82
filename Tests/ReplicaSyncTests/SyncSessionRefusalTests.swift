import ReplicaSync
import TestSupport
import Testing

@Suite struct SyncSessionRefusalTests {
    @Test(arguments: [false, true])
    func aWrongTokenClosesBothSidesAndNoContentCrosses(encrypted: Bool) {
        let network = SessionNetwork(nodeCount: 2, seed: 5)
        network.write(node: 0, key: "secret-stroke", value: "x")
        network.write(node: 1, key: "other-stroke", value: "y")
        let link = network.connect(0, 1) { a, b in
            a.token = "right"
            b.token = "wrong"
            a.encrypts = encrypted
        }
        network.runUntilQuiet()
        for side in 0..<2 {
            let reason = link.reasons[side]
            #expect(
                reason == .authenticationFailed
                    || reason
                        == .remoteClosed(.authenticationFailed, SyncCloseReason.authenticationFailed.message)
            )
            #expect(network.replicas[side].changesComputedCount == 0)
            #expect(network.replicas[side].appliedDeltaCount == 0)
        }
        #expect(link.reasons[0]?.message.contains("token") == true)
    }

    @Test func theTokenNeverCrossesTheWire() {
        let network = SessionNetwork(nodeCount: 2, seed: 6)
        let token = "correct horse battery staple"
        let link = network.connect(0, 1) { a, b in
            a.token = token
            b.token = token
        }
        network.runUntilQuiet()
        #expect(link.sessions.allSatisfy { $0.isEstablished })
        let needle = Array(token.utf8)
        for side in 0..<2 {
            let sent = link.sentBytes[side]
            let found = (0...(sent.count - needle.count)).contains {
                Array(sent[$0..<$0 + needle.count]) == needle
            }
            #expect(!found)
        }
    }

    @Test func aWrongDatabaseIDClosesWithAReasonNamingBothIDs() {
        let network = SessionNetwork(nodeCount: 2, seed: 7)
        network.write(node: 0, key: "a", value: "x")
        let link = network.connect(0, 1) { a, b in
            a.databaseID = "team"
            b.databaseID = "home"
        }
        network.runUntilQuiet()
        // The acceptor checks the initiator's hello; the initiator hears why in the goodbye.
        #expect(link.reasons[1] == .databaseMismatch(local: "home", remote: "team"))
        #expect(link.reasons[0] == .remoteClosed(.databaseMismatch, link.reasons[1]?.message ?? ""))
        #expect(link.reasons[0]?.message.contains("'home'") == true)
        #expect(network.replicas[1].appliedDeltaCount == 0)
    }

    @Test(arguments: [false, true])
    func aMessageOverTheFrameLimitClosesWithAReasonInsteadOfVanishing(encrypted: Bool) {
        let network = SessionNetwork(nodeCount: 2, seed: 9)
        let link = network.connect(0, 1) { a, b in
            a.frameSizeLimit = 4096
            b.frameSizeLimit = 4096
            a.encrypts = encrypted
        }
        network.runUntilQuiet()
        #expect(link.sessions.allSatisfy { $0.isEstablished })
        let stroke = (0..<1000).map { PresenceUpdate.Point(x: Int32($0), y: 0) }
        let update = PresenceUpdate(
            peerID: 1, displayName: "peer 1", drawingID: "drawing-1", cursor: .init(x: 0, y: 0), tool: "pen",
            colour: 1, strokeInProgress: stroke)
        network.drive(link, side: 0) { $0.publish(presence: update, now: $1) }
        network.runUntilQuiet()
        guard case .protocolViolation(.outgoingFrameTooLarge)? = link.reasons[0] else {
            Issue.record("side 0 closed with \(String(describing: link.reasons[0]))")
            return
        }
        #expect(link.reasons[1]?.message.contains("frame limit") == true)
        #expect(link.presence[1].isEmpty)
    }

    private func freshAcceptor() -> (SessionNetwork, SessionNetwork.Link) {
        let network = SessionNetwork(nodeCount: 2, seed: 8)
        network.write(node: 1, key: "a", value: "x")
        let link = network.connect(0, 1)
        // Side 1 hears only what the test injects; side 0's real frames are discarded.
        link.queues[1] = []
        return (network, link)
    }

    /// The goodbye frames side 1 sent back, decoded, so the other side's view is checked too.
    private func goodbyes(in link: SessionNetwork.Link) -> [SyncMessage] {
        var decoder = FrameDecoder()
        decoder.append(link.queues[0].flatMap { $0 })
        var messages: [SyncMessage] = []
        while let frame = try? decoder.nextFrame() {
            if let message = try? SyncMessage(frame: frame), message.kind == .goodbye {
                messages.append(message)
            }
        }
        return messages
    }

    /// Version 1 lacked `presenceLeft`: its peers must be refused by name, not by an unknown type.
    /// Version 2 peers do not read erasures stored as sweeps: they are refused too.
    @Test(arguments: [SyncMessage.protocolVersion + 1, 1, 2, 3, 4, 5])
    func anotherProtocolVersionIsRefusedWithBothVersionsNamed(version: UInt8) {
        let (network, link) = freshAcceptor()
        let hello = SyncMessage.hello(
            .init(
                databaseID: "default", wantsEncryption: false, sessionID: Array(repeating: 1, count: 16),
                share: Array(repeating: 2, count: 32)))
        network.inject(try! hello.frame(version: version).encoded(), into: link, side: 1)
        #expect(
            link.reasons[1] == .protocolVersionMismatch(local: SyncMessage.protocolVersion, remote: version))
        #expect(goodbyes(in: link).first?.kind == .goodbye)
        #expect(network.replicas[1].changesComputedCount == 0)
    }

    @Test(arguments: [
        ("garbage", Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)),
        ("four GiB prefix", [0xFF, 0xFF, 0xFF, 0xFF, 1, 1]),
        ("unknown type", [0, 0, 0, 2, SyncMessage.protocolVersion, 200]),
    ])
    func hostileBytesCloseWithAProtocolViolationAndAGoodbye(name: String, bytes: [UInt8]) {
        let (network, link) = freshAcceptor()
        network.inject(bytes, into: link, side: 1)
        guard case .protocolViolation? = link.reasons[1] else {
            Issue.record("\(name): closed with \(String(describing: link.reasons[1]))")
            return
        }
        #expect(
            goodbyes(in: link).contains {
                if case .goodbye(.protocolViolation, _) = $0 { true } else { false }
            })
        #expect(network.replicas[1].changesComputedCount == 0)
    }

    @Test func aFrameCutOffByTheEndOfTheConnectionIsReported() throws {
        let (network, link) = freshAcceptor()
        let hello = try SyncMessage.hello(
            .init(
                databaseID: "default", wantsEncryption: false, sessionID: Array(repeating: 1, count: 16),
                share: Array(repeating: 2, count: 32))
        )
        .frame().encoded()
        network.inject(Array(hello.prefix(9)), into: link, side: 1)
        let actions = link.sessions[1].transportClosed()
        #expect(
            actions.last == .close(.protocolViolation(.truncatedFrame(received: 9, expected: hello.count))))
    }

    @Test func messagesOutOfHandshakeOrderAreRefused() throws {
        let (network, link) = freshAcceptor()
        network.inject(try SyncMessage.keepalive.frame().encoded(), into: link, side: 1)
        #expect(link.reasons[1] == .unexpectedMessage("keepalive", phase: "the handshake"))
    }

    @Test func garbageAfterTheHandshakeClosesWithoutApplyingAnything() {
        let network = SessionNetwork(nodeCount: 2, seed: 9)
        let link = network.connect(0, 1)
        network.runUntilQuiet()
        network.replicas[0].write(document: "drawing-1", key: "late", value: "v")
        network.inject([0, 0, 0, 3, SyncMessage.protocolVersion, 6, 0xEE], into: link, side: 1)
        network.runUntilQuiet()
        guard case .protocolViolation? = link.reasons[1] else {
            Issue.record("closed with \(String(describing: link.reasons[1]))")
            return
        }
        #expect(network.replicas[1].appliedDeltaCount == 0)
        #expect(
            link.reasons[0].map { if case .remoteClosed(.protocolViolation, _) = $0 { true } else { false } }
                == true)
    }

    @Test func onAnEncryptedConnectionTamperedOrPlainFramesAreRefused() throws {
        for tamper in [true, false] {
            let network = SessionNetwork(nodeCount: 2, seed: 10)
            let link = network.connect(0, 1) { a, _ in a.encrypts = true }
            network.runUntilQuiet()
            #expect(link.sessions.allSatisfy { $0.isEstablished })
            network.write(node: 0, key: "k", value: "v")
            var frame = try #require(link.queues[1].first)
            link.queues[1] = []
            if tamper {
                frame[frame.count - 1] ^= 1
            } else {
                frame = try SyncMessage.keepalive.frame().encoded()
            }
            network.inject(frame, into: link, side: 1)
            let expected: SyncProtocolError =
                tamper ? .decryptionFailed : .unencryptedFrame(messageType: "keepalive")
            #expect(link.reasons[1] == .protocolViolation(expected))
            #expect(network.replicas[1].appliedDeltaCount == 0)
        }
    }
}

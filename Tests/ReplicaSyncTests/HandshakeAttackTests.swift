import CSodium
import MonotonicTime
import TestSupport
import Testing

@testable import ReplicaSync

/// The handshake as an attacker sees it: a recorded run, an active guess, bad shares, a hello
/// changed in transit. "Offline check" below means: a function of the bytes on the wire and a
/// guessed token that says whether the guess is right, run as often as the attacker likes.
@Suite struct HandshakeAttackTests {
    static let token = "correct horse battery staple"
    static let now = SyncInstant(milliseconds: 1_000)

    /// What one run put on the wire, in the order it went out.
    struct Recording {
        var initiatorSecrets: HandshakeSecrets
        var acceptorSecrets: HandshakeSecrets
        var fromInitiator: [SyncMessage] = []
        var fromAcceptor: [SyncMessage] = []
        var sessions: [SyncSession]

        var initiatorHello: SyncMessage.Hello? {
            fromInitiator.lazy.compactMap { if case .hello(let h) = $0 { h } else { nil } }.first
        }
        var acceptorHello: SyncMessage.Hello? {
            fromAcceptor.lazy.compactMap { if case .hello(let h) = $0 { h } else { nil } }.first
        }
        var acceptorConfirmation: [UInt8]? {
            fromAcceptor.lazy.compactMap { if case .response(let c, _) = $0 { c } else { nil } }.first
        }
    }

    /// Runs an initiator with `guess` against an acceptor with the real token, frame by frame,
    /// recording every clear frame (sealed ones stay sealed), until neither has anything to say.
    static func record(guess: String, seed: UInt64, tamper: (inout SyncMessage) -> Void = { _ in })
        -> Recording
    {
        var generator = SplitMix64(seed: seed)
        let secrets = [HandshakeSecrets(using: &generator), HandshakeSecrets(using: &generator)]
        var sessions = [
            SyncSession(
                configuration: SessionNetwork.configuration(peer: 1, token: guess, encrypts: true),
                role: .initiator,
                replica: InMemorySyncReplica(peerID: 1), secrets: secrets[0], now: now),
            SyncSession(
                configuration: SessionNetwork.configuration(peer: 2, token: token, encrypts: true),
                role: .acceptor,
                replica: InMemorySyncReplica(peerID: 2), secrets: secrets[1], now: now),
        ]
        var recording = Recording(initiatorSecrets: secrets[0], acceptorSecrets: secrets[1], sessions: [])
        var pending: [(side: Int, bytes: [UInt8])] = sessions[0].start(now: now).sent.map { (0, $0) }
        pending += sessions[1].start(now: now).sent.map { (1, $0) }
        var steps = 0
        while !pending.isEmpty, steps < 100 {
            steps += 1
            let (side, bytes) = pending.removeFirst()
            var decoder = FrameDecoder()
            decoder.append(bytes)
            var delivered = bytes
            if let frame = try? decoder.nextFrame(), var message = try? SyncMessage(frame: frame) {
                if side == 0 {
                    tamper(&message)
                    delivered = (try? message.frame(version: frame.version).encoded()) ?? bytes
                    recording.fromInitiator.append(message)
                } else {
                    recording.fromAcceptor.append(message)
                }
            }
            let other = 1 - side
            pending += sessions[other].receive(delivered, now: now).sent.map { (other, $0) }
        }
        recording.sessions = sessions
        return recording
    }

    /// The acceptor's confirmation as someone predicts it from the wire, a guessed token's
    /// generator and a candidate shared point.
    static func predictedAcceptorConfirmation(_ recording: Recording, sharedPoint: [UInt8]) -> [UInt8]? {
        guard let a = recording.initiatorHello, let b = recording.acceptorHello else { return nil }
        let version = SyncMessage.protocolVersion
        let dataA = SyncAuthentication.associatedData(of: a, version: version)
        let dataB = SyncAuthentication.associatedData(of: b, version: version)
        let isk = CPace.intermediateSessionKey(
            sessionID: a.sessionID, sharedPoint: sharedPoint, initiatorShare: a.share, initiatorData: dataA,
            responderShare: b.share, responderData: dataB)
        let key = CPace.confirmationKey(sessionID: a.sessionID, intermediateKey: isk)
        return CPace.confirmation(key: key, share: b.share, data: dataB)
    }

    static func generator(_ guess: String, _ hello: SyncMessage.Hello) -> [UInt8] {
        CPace.generator(
            token: Array(guess.utf8), channel: SyncAuthentication.channel(databaseID: hello.databaseID),
            sessionID: hello.sessionID)
    }

    @Test func aRecordedHandshakeGivesAPassiveListenerNothingToTestAGuessAgainst() throws {
        let recording = Self.record(guess: Self.token, seed: 21)
        #expect(recording.sessions.allSatisfy { $0.isEstablished })
        let a = try #require(recording.initiatorHello)
        let b = try #require(recording.acceptorHello)
        let confirmation = try #require(recording.acceptorConfirmation)
        // Every point a listener can form from the wire and a guess, for the right guess and wrong
        // ones alike: none reproduces the confirmation, so none tells the right guess apart.
        for guess in [Self.token, "correct horse battery stapler", "", "hunter2"] {
            let g = Self.generator(guess, a)
            var candidates = [g, a.share, b.share]
            candidates += [CPace.multiply(a.sessionID + a.sessionID, g)].compactMap { $0 }
            var sum = [UInt8](repeating: 0, count: 32)
            _ = crypto_core_ristretto255_add(&sum, a.share, b.share)
            candidates.append(sum)
            for point in candidates {
                #expect(Self.predictedAcceptorConfirmation(recording, sharedPoint: point) != confirmation)
            }
            // Nor do the shares reveal the generator they were made from.
            #expect(a.share != g && b.share != g)
        }
        // With the acceptor's scalar, which never leaves its process, the same prediction works,
        // and the guess can be tested (the share is the scalar times the right generator only):
        // the recording verifies under the right token only for a party to the run.
        let yb = CPace.scalar(fromRandom: recording.acceptorSecrets.scalarSeed)
        let point = try #require(CPace.multiply(yb, a.share))
        #expect(Self.predictedAcceptorConfirmation(recording, sharedPoint: point) == confirmation)
        #expect(CPace.multiply(yb, Self.generator(Self.token, a)) == b.share)
        #expect(CPace.multiply(yb, Self.generator("hunter2", a)) != b.share)
        // The token's bytes are nowhere on the wire.
        let wire = (recording.fromInitiator + recording.fromAcceptor).flatMap { $0.frame().payload }
        let needle = Array(Self.token.utf8)
        #expect(!(0...(wire.count - needle.count)).contains { Array(wire[$0..<$0 + needle.count]) == needle })
    }

    @Test func anActiveAttackerTestsOnlyTheOneGuessItPlayedPerConnection() throws {
        let recording = Self.record(guess: "hunter2", seed: 22)
        // Refused on both sides, and the acceptor never said who it is.
        #expect(recording.sessions.allSatisfy { !$0.isOpen && !$0.isEstablished })
        #expect(recording.sessions[1].closeReason == .authenticationFailed)
        #expect(!recording.fromAcceptor.contains { $0.kind == .identity || $0.kind == .sealed })
        // Neither side's name (host name and pid in real use) went out: only after the proof.
        for (messages, name) in [(recording.fromAcceptor, "peer 2"), (recording.fromInitiator, "peer 1")] {
            let wire = messages.flatMap { $0.frame().payload }
            let needle = Array(name.utf8)
            #expect(
                !(0...(wire.count - needle.count)).contains { Array(wire[$0..<$0 + needle.count]) == needle })
        }
        let a = try #require(recording.initiatorHello)
        let b = try #require(recording.acceptorHello)
        let confirmation = try #require(recording.acceptorConfirmation)
        let ya = CPace.scalar(fromRandom: recording.initiatorSecrets.scalarSeed)
        // The attacker holds its own scalar: the guess it played is checked (and is wrong)...
        let played = try #require(CPace.multiply(ya, b.share))
        #expect(Self.predictedAcceptorConfirmation(recording, sharedPoint: played) != confirmation)
        #expect(CPace.multiply(ya, Self.generator("hunter2", a)) == a.share)
        // ...but no other guess, not even the right token, can be checked against this run: its
        // share was made from the wrong generator, and nothing it knows relates the two.
        for guess in [Self.token, "hunter3", "password"] {
            let g = Self.generator(guess, a)
            for point in [CPace.multiply(ya, b.share), CPace.multiply(ya, g), g].compactMap({ $0 }) {
                #expect(Self.predictedAcceptorConfirmation(recording, sharedPoint: point) != confirmation)
            }
        }
        // The control: an attacker that played the right token does recognise it (its one guess).
        let lucky = Self.record(guess: Self.token, seed: 22)
        let yLucky = CPace.scalar(fromRandom: lucky.initiatorSecrets.scalarSeed)
        let luckyHello = try #require(lucky.acceptorHello)
        let luckyPoint = try #require(CPace.multiply(yLucky, luckyHello.share))
        #expect(
            Self.predictedAcceptorConfirmation(lucky, sharedPoint: luckyPoint) == lucky.acceptorConfirmation)
    }

    @Test(arguments: [
        ("identity", [UInt8](repeating: 0, count: 32)),
        ("not a point", CPaceTests.bytes("2b3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c")),
    ])
    func anInvalidShareIsRefusedBeforeAnyKeyIsDerived(name: String, share: [UInt8]) {
        let recording = Self.record(guess: Self.token, seed: 23) { message in
            if case .hello(var hello) = message {
                hello.share = share
                message = .hello(hello)
            }
        }
        #expect(recording.sessions[1].closeReason == .authenticationFailed, "\(name)")
        // The acceptor sent no hello and no confirmation back: only its goodbye.
        #expect(recording.fromAcceptor.map(\.kind) == [.goodbye], "\(name)")
    }

    @Test func aHelloChangedInTransitFailsTheConfirmation() {
        // A man in the middle turns the initiator's request for encryption off.
        let recording = Self.record(guess: Self.token, seed: 24) { message in
            if case .hello(var hello) = message {
                hello.wantsEncryption = false
                message = .hello(hello)
            }
        }
        #expect(recording.sessions.allSatisfy { !$0.isEstablished })
        #expect(recording.sessions[0].closeReason == .authenticationFailed)
    }

    @Test func anOldPeerIsToldToUpgrade() throws {
        var generator = SplitMix64(seed: 25)
        var session = SyncSession(
            configuration: SessionNetwork.configuration(peer: 2, token: Self.token), role: .acceptor,
            replica: InMemorySyncReplica(peerID: 2), secrets: HandshakeSecrets(using: &generator),
            now: Self.now)
        _ = session.start(now: Self.now)
        // Version 2's hello: database id, peer id, display name, flags.
        var payload: [UInt8] = [0, 7] + Array("default".utf8) + [UInt8](repeating: 1, count: 8)
        payload += [0, 3] + Array("old".utf8) + [1]
        let frame = try Frame(version: 2, type: 1, payload: payload).encoded()
        let sent = session.receive(frame, now: Self.now).sent
        var decoder = FrameDecoder()
        decoder.append(sent.flatMap { $0 })
        let goodbye = try #require(try decoder.nextFrame())
        guard case .goodbye(.protocolVersionMismatch, let text) = try SyncMessage(frame: goodbye) else {
            Issue.record("sent \(goodbye)")
            return
        }
        #expect(text.contains("this peer speaks \(SyncMessage.protocolVersion), the other 2"))
        #expect(text.contains("upgrade"))
    }
}

extension [SyncAction] {
    var sent: [[UInt8]] {
        compactMap { if case .send(let bytes) = $0 { bytes } else { nil } }
    }
}

import MonotonicTime

/// The handshake: hello, challenge, response, then (if both proofs check out) replication.
extension SyncSession {
    /// What one side knows while the handshake runs.
    struct HandshakeProgress {
        let nonce: [UInt8]
        let keyPair: KeyExchangeKeyPair
        var transcript: SyncAuthentication.Transcript?
        var encrypted = false

        init(secrets: HandshakeSecrets) {
            nonce = secrets.nonce
            keyPair = KeyExchangeKeyPair(seed: secrets.keySeed)
        }
    }

    mutating func receive(frame: Frame, now: SyncInstant) -> [SyncAction] {
        var frame = frame
        if receiver != nil {
            // After the remote's response on an encrypted connection, only sealed frames count.
            guard frame.type == SyncMessage.Kind.sealed.rawValue else {
                let name = SyncMessage.Kind(rawValue: frame.type).map { String(describing: $0) } ?? "unknown"
                return refuse(.protocolViolation(.unencryptedFrame(messageType: name)), now: now)
            }
            do {
                frame = try open(sealed: frame)
            } catch {
                return refuse(.protocolViolation(error), now: now)
            }
        }
        // A goodbye's layout never changes, so any version's goodbye can be read and shown.
        if frame.type == SyncMessage.Kind.goodbye.rawValue,
            case .goodbye(let code, let text)? = try? SyncMessage(frame: frame)
        {
            return close(.remoteClosed(code, text))
        }
        guard frame.version == SyncMessage.protocolVersion else {
            return refuse(
                .protocolVersionMismatch(local: SyncMessage.protocolVersion, remote: frame.version), now: now)
        }
        let message: SyncMessage
        do {
            message = try SyncMessage(frame: frame)
        } catch {
            return refuse(.protocolViolation(error), now: now)
        }
        switch state {
        case .fresh, .closed:
            return []
        case .handshaking(let handshake):
            return receiveDuringHandshake(message, handshake: handshake, now: now)
        case .established:
            return receiveReplication(message, now: now)
        }
    }

    private mutating func open(sealed frame: Frame) throws(SyncProtocolError) -> Frame {
        guard case .sealed(let ciphertext) = try SyncMessage(frame: frame), let receiver else {
            throw .decryptionFailed
        }
        let plaintext = try receiver.open(ciphertext)
        var inner = FrameDecoder(sizeLimit: configuration.frameSizeLimit)
        inner.append(plaintext)
        guard let innerFrame = try inner.nextFrame(), inner.bufferedByteCount == 0 else {
            throw .truncatedFrame(received: plaintext.count, expected: plaintext.count + 1)
        }
        return innerFrame
    }

    private mutating func receiveDuringHandshake(
        _ message: SyncMessage, handshake: HandshakeProgress, now: SyncInstant
    ) -> [SyncAction] {
        switch message {
        case .hello(let hello) where remote == nil:
            guard hello.databaseID == configuration.databaseID else {
                return refuse(
                    .databaseMismatch(local: configuration.databaseID, remote: hello.databaseID), now: now)
            }
            remote = hello
            return []
        case .challenge(let nonce, let publicKey) where remote != nil && handshake.transcript == nil:
            return answer(challengeNonce: nonce, publicKey: publicKey, handshake: handshake, now: now)
        case .response(let proof, let streamHeader) where handshake.transcript != nil:
            return verify(proof: proof, streamHeader: streamHeader, handshake: handshake, now: now)
        default:
            return refuse(
                .unexpectedMessage(String(describing: message.kind), phase: "the handshake"), now: now)
        }
    }

    private mutating func answer(
        challengeNonce: [UInt8], publicKey: [UInt8], handshake: HandshakeProgress, now: SyncInstant
    ) -> [SyncAction] {
        var handshake = handshake
        guard let remoteHello = remote,
            let keys = handshake.keyPair.sessionKeys(
                remotePublicKey: publicKey, isInitiator: role == .initiator)
        else { return refuse(.authenticationFailed, now: now) }
        let local = (peerID: configuration.peerID, nonce: handshake.nonce, key: handshake.keyPair.publicKey)
        let other = (peerID: remoteHello.peerID, nonce: challengeNonce, key: publicKey)
        let (initiator, acceptor) = role == .initiator ? (local, other) : (other, local)
        let transcript = SyncAuthentication.Transcript(
            databaseID: configuration.databaseID, initiatorPeerID: initiator.peerID,
            acceptorPeerID: acceptor.peerID,
            initiatorNonce: initiator.nonce, acceptorNonce: acceptor.nonce,
            initiatorPublicKey: initiator.key, acceptorPublicKey: acceptor.key,
            keyToAcceptor: keys.toAcceptor, keyToInitiator: keys.toInitiator)
        handshake.transcript = transcript
        handshake.encrypted = configuration.encrypts || remoteHello.wantsEncryption
        state = .handshaking(handshake)
        let proof = SyncAuthentication(token: configuration.token).proof(for: role, transcript: transcript)
        var header: [UInt8] = []
        var streamSender: SecretStreamSender?
        if handshake.encrypted {
            let stream = SecretStreamSender(key: role == .initiator ? keys.toAcceptor : keys.toInitiator)
            header = stream.header
            streamSender = stream
        }
        let response = send(.response(proof: proof, streamHeader: header), now: now)
        // Everything after the response travels sealed.
        sender = streamSender
        return response
    }

    private mutating func verify(
        proof: [UInt8], streamHeader: [UInt8], handshake: HandshakeProgress, now: SyncInstant
    ) -> [SyncAction] {
        guard let transcript = handshake.transcript, let remoteHello = remote else { return [] }
        let remoteRole: SyncRole = role == .initiator ? .acceptor : .initiator
        guard
            SyncAuthentication(token: configuration.token).verify(
                proof, from: remoteRole, transcript: transcript)
        else { return refuse(.authenticationFailed, now: now) }
        // An encrypted connection needs the remote's stream header, a plain one must not have one.
        let key = role == .initiator ? transcript.keyToInitiator : transcript.keyToAcceptor
        let stream = handshake.encrypted ? SecretStreamReceiver(key: key, header: streamHeader) : nil
        guard handshake.encrypted ? stream != nil : streamHeader.isEmpty else {
            let error = SyncProtocolError.invalidValue(
                field: "response.streamHeader", value: UInt64(streamHeader.count))
            return refuse(.protocolViolation(error), now: now)
        }
        receiver = stream
        state = .established
        return [.established(remoteHello)] + startReplication(now: now)
    }
}

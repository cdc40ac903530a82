import MonotonicTime

/// The handshake, CPace with key confirmation in one and a half round trips:
///
///     initiator                                   acceptor
///     hello(db, flags, sid, Ya)          ->
///                                        <-       hello(db, flags, sid, Yb), response(Tb, header)
///     response(Ta, header), identity     ->
///                                        <-       identity
///
/// Each side checks the other's confirmation before it trusts anything or says who it is; the
/// identities (peer id, display name) travel only after that, sealed on an encrypted connection.
/// Until the other side is authenticated, frames are held to `handshakeFrameSizeLimit`.
extension SyncSession {
    /// What one side knows while the handshake runs.
    struct HandshakeProgress {
        let secrets: HandshakeSecrets
        var authentication: SyncAuthentication?
        var localHello: SyncMessage.Hello?
        var remoteHello: SyncMessage.Hello?
        var keys: SyncAuthentication.Keys?
        var encrypted = false
        /// This side's stream, started when its response went out and used once the other side
        /// is authenticated (a refusal before that must stay readable by a stranger).
        var pendingSender: SecretStreamSender?
        var remoteAuthenticated = false

        init(secrets: HandshakeSecrets) {
            self.secrets = secrets
        }
    }

    mutating func sendInitiatorHello(secrets: HandshakeSecrets, now: SyncInstant) -> [SyncAction] {
        guard case .handshaking(var handshake) = state,
            let authentication = SyncAuthentication(
                token: configuration.token, databaseID: configuration.databaseID, role: .initiator,
                sessionID: secrets.sessionID, scalarSeed: secrets.scalarSeed)
        else { return refuse(.authenticationFailed, now: now) }
        let hello = localHello(sessionID: secrets.sessionID, share: authentication.share)
        handshake.authentication = authentication
        handshake.localHello = hello
        state = .handshaking(handshake)
        return send(.hello(hello), now: now)
    }

    private func localHello(sessionID: [UInt8], share: [UInt8]) -> SyncMessage.Hello {
        SyncMessage.Hello(
            databaseID: configuration.databaseID, wantsEncryption: configuration.encrypts,
            sessionID: sessionID, share: share)
    }

    mutating func receive(frame: Frame, now: SyncInstant) -> [SyncAction] {
        var frame = frame
        // Until the remote's identity arrives it may still refuse in the clear (it had not
        // authenticated this side yet when it decided to).
        let clearGoodbye: Bool = {
            guard case .handshaking = state else { return false }
            return frame.type == SyncMessage.Kind.goodbye.rawValue
        }()
        if receiver != nil, !clearGoodbye {
            // Once the remote is authenticated on an encrypted connection, only sealed frames count.
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
            // The side that finds the tokens differ is the first to check a confirmation (the
            // initiator): its refusal during the handshake is this side's failed authentication too.
            if case .handshaking = state, code == .authenticationFailed {
                return close(.authenticationFailed)
            }
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
        case .hello(let hello) where handshake.remoteHello == nil:
            guard hello.databaseID == configuration.databaseID else {
                return refuse(
                    .databaseMismatch(local: configuration.databaseID, remote: hello.databaseID), now: now)
            }
            return role == .initiator
                ? receiveAcceptorHello(hello, handshake: handshake, now: now)
                : answer(initiatorHello: hello, handshake: handshake, now: now)
        case .response(let confirmation, let streamHeader)
        where handshake.keys != nil && !handshake.remoteAuthenticated:
            return verify(
                confirmation: confirmation, streamHeader: streamHeader, handshake: handshake, now: now)
        case .identity(let identity) where handshake.remoteAuthenticated:
            remote = identity
            state = .established
            return [.established(identity)] + startReplication(now: now)
        default:
            return refuse(
                .unexpectedMessage(String(describing: message.kind), phase: "the handshake"), now: now)
        }
    }

    /// The acceptor's side: the initiator's hello fixes the session id; answer with this side's
    /// hello and confirmation at once.
    private mutating func answer(
        initiatorHello: SyncMessage.Hello, handshake: HandshakeProgress, now: SyncInstant
    ) -> [SyncAction] {
        var handshake = handshake
        guard
            let authentication = SyncAuthentication(
                token: configuration.token, databaseID: configuration.databaseID, role: .acceptor,
                sessionID: initiatorHello.sessionID, scalarSeed: handshake.secrets.scalarSeed)
        else { return refuse(.authenticationFailed, now: now) }
        let hello = localHello(sessionID: initiatorHello.sessionID, share: authentication.share)
        guard
            let keys = authentication.keys(
                localHello: hello, remoteHello: initiatorHello, version: SyncMessage.protocolVersion)
        else { return refuse(.authenticationFailed, now: now) }
        handshake.authentication = authentication
        handshake.localHello = hello
        handshake.remoteHello = initiatorHello
        handshake.keys = keys
        handshake.encrypted = configuration.encrypts || initiatorHello.wantsEncryption
        let (header, stream) = startStream(keys: keys, encrypted: handshake.encrypted)
        handshake.pendingSender = stream
        state = .handshaking(handshake)
        answeredAGuess = true
        return send(.hello(hello), now: now)
            + send(.response(confirmation: keys.localConfirmation, streamHeader: header), now: now)
    }

    /// The initiator's side: the acceptor's hello must echo the session id; its confirmation
    /// follows.
    private mutating func receiveAcceptorHello(
        _ hello: SyncMessage.Hello, handshake: HandshakeProgress, now: SyncInstant
    ) -> [SyncAction] {
        var handshake = handshake
        guard let authentication = handshake.authentication, let localHello = handshake.localHello,
            Sodium.constantTimeEqual(hello.sessionID, authentication.sessionID)
        else {
            return refuse(
                .unexpectedMessage("hello with another session id", phase: "the handshake"), now: now)
        }
        guard
            let keys = authentication.keys(
                localHello: localHello, remoteHello: hello, version: SyncMessage.protocolVersion)
        else { return refuse(.authenticationFailed, now: now) }
        handshake.remoteHello = hello
        handshake.keys = keys
        handshake.encrypted = configuration.encrypts || hello.wantsEncryption
        state = .handshaking(handshake)
        return []
    }

    /// Checks the other side's confirmation; on success this side confirms (the initiator),
    /// starts its stream and says who it is.
    private mutating func verify(
        confirmation: [UInt8], streamHeader: [UInt8], handshake: HandshakeProgress, now: SyncInstant
    ) -> [SyncAction] {
        var handshake = handshake
        guard let keys = handshake.keys else { return [] }
        guard Sodium.constantTimeEqual(confirmation, keys.remoteConfirmation) else {
            return refuse(.authenticationFailed, now: now)
        }
        // An encrypted connection needs the remote's stream header, a plain one must not have one.
        let key = role == .initiator ? keys.keyToInitiator : keys.keyToAcceptor
        let stream = handshake.encrypted ? SecretStreamReceiver(key: key, header: streamHeader) : nil
        guard handshake.encrypted ? stream != nil : streamHeader.isEmpty else {
            let error = SyncProtocolError.invalidValue(
                field: "response.streamHeader", value: UInt64(streamHeader.count))
            return refuse(.protocolViolation(error), now: now)
        }
        receiver = stream
        handshake.remoteAuthenticated = true
        // The other side proved the token: from here the full frame limit applies.
        decoder.sizeLimit = configuration.frameSizeLimit
        var actions: [SyncAction] = []
        if role == .initiator {
            let (header, ownStream) = startStream(keys: keys, encrypted: handshake.encrypted)
            actions += send(.response(confirmation: keys.localConfirmation, streamHeader: header), now: now)
            handshake.pendingSender = ownStream
        }
        // Everything after the confirmations travels sealed.
        sender = handshake.pendingSender
        handshake.pendingSender = nil
        state = .handshaking(handshake)
        let identity = SyncMessage.Identity(
            peerID: configuration.peerID, displayName: configuration.displayName)
        return actions + send(.identity(identity), now: now)
    }

    private func startStream(keys: SyncAuthentication.Keys, encrypted: Bool) -> ([UInt8], SecretStreamSender?)
    {
        guard encrypted else { return ([], nil) }
        let stream = SecretStreamSender(key: role == .initiator ? keys.keyToAcceptor : keys.keyToInitiator)
        return (stream.header, stream)
    }
}

import MonotonicTime

/// One connection's sync protocol as a state machine with no I/O: bytes, local commits and
/// timer ticks go in, `SyncAction`s come out. The driver (a `SyncNode`, or a test loop) moves the
/// bytes.
///
/// Reads and applies go through the `SyncReplica` it is given, on the caller's thread.
public struct SyncSession {
    /// Its subscriptions grow when this side subscribes to more mid-session (`subscribe`).
    public internal(set) var configuration: SyncSessionConfiguration
    public let role: SyncRole
    let replica: any SyncReplica
    var state: State
    var decoder: FrameDecoder
    var sender: SecretStreamSender?
    var receiver: SecretStreamReceiver?
    var replication = ReplicationProgress()
    var presence: [UInt64: (update: PresenceUpdate, seenAt: SyncInstant)] = [:]
    var lastReceived: SyncInstant
    var lastSent: SyncInstant
    let startedAt: SyncInstant
    /// Consumed by `start`, so one session never reuses its handshake randomness.
    private var pendingSecrets: HandshakeSecrets?
    /// The remote's identity, once it has proven the token and said who it is.
    public internal(set) var remote: SyncMessage.Identity?
    /// Whether this side (the acceptor) answered a hello with its confirmation: the other side
    /// then had its one guess of the token, whatever happens next.
    public internal(set) var answeredAGuess = false
    /// When a delta was last applied or acknowledged.
    public internal(set) var lastSyncAt: SyncInstant?
    /// What the remote relay last said is wrong with it (`SyncMessage.relayStatus`), nil if nothing.
    public internal(set) var relayProblem: String?

    enum State {
        case fresh
        case handshaking(HandshakeProgress)
        case established
        case closed(SyncCloseReason)
    }

    public init(
        configuration: SyncSessionConfiguration, role: SyncRole, replica: any SyncReplica,
        secrets: HandshakeSecrets, now: SyncInstant
    ) {
        self.configuration = configuration
        self.role = role
        self.replica = replica
        state = .fresh
        pendingSecrets = secrets
        decoder = FrameDecoder(
            sizeLimit: min(configuration.handshakeFrameSizeLimit, configuration.frameSizeLimit))
        lastReceived = now
        lastSent = now
        startedAt = now
    }

    /// Starts the handshake; call once, when the connection is up. The initiator sends its hello,
    /// the acceptor waits for it.
    public mutating func start(now: SyncInstant) -> [SyncAction] {
        guard case .fresh = state, let secrets = pendingSecrets else { return [] }
        pendingSecrets = nil
        state = .handshaking(HandshakeProgress(secrets: secrets))
        guard role == .initiator else { return [] }
        return sendInitiatorHello(secrets: secrets, now: now)
    }

    /// Bytes from the connection, in any chunking.
    public mutating func receive(_ bytes: some Collection<UInt8>, now: SyncInstant) -> [SyncAction] {
        guard isOpen else { return [] }
        lastReceived = now
        decoder.append(bytes)
        var actions: [SyncAction] = []
        while isOpen {
            do {
                guard let frame = try decoder.nextFrame() else { break }
                actions += receive(frame: frame, now: now)
            } catch {
                actions += refuse(.protocolViolation(error), now: now)
            }
        }
        return actions
    }

    /// The connection ended (EOF or error).
    public mutating func transportClosed() -> [SyncAction] {
        guard isOpen else { return [] }
        do {
            try decoder.checkEndOfStream()
            return close(.transportClosed)
        } catch {
            return close(.protocolViolation(error))
        }
    }

    /// Says goodbye and closes (this peer is shutting down or dropping the connection).
    public mutating func shutdown(now: SyncInstant) -> [SyncAction] {
        guard isOpen else { return [] }
        return refuse(.localShutdown, now: now)
    }

    /// Timers: handshake timeout, keepalive, idle timeout, presence expiry.
    public mutating func tick(now: SyncInstant) -> [SyncAction] {
        var actions: [SyncAction] = []
        switch state {
        case .fresh, .closed:
            return []
        case .handshaking:
            if now.since(startedAt) >= configuration.handshakeTimeout {
                return refuse(.timedOut(phase: "the handshake"), now: now)
            }
        case .established:
            if now.since(lastReceived) >= configuration.idleTimeout {
                return refuse(.timedOut(phase: "sync"), now: now)
            }
            if now.since(lastSent) >= configuration.keepaliveInterval {
                actions += send(.keepalive, now: now)
            }
        }
        for (peerID, entry) in presence where now.since(entry.seenAt) >= configuration.presenceTimeout {
            presence[peerID] = nil
            actions.append(.presenceExpired(peerID: peerID))
        }
        return actions
    }

    /// The earliest instant at which `tick` has something to do.
    public var nextDeadline: SyncInstant? {
        var earliest: SyncInstant
        switch state {
        case .fresh, .closed:
            return nil
        case .handshaking:
            earliest = startedAt + configuration.handshakeTimeout
        case .established:
            earliest = min(
                lastReceived + configuration.idleTimeout, lastSent + configuration.keepaliveInterval)
        }
        for entry in presence.values {
            earliest = min(earliest, entry.seenAt + configuration.presenceTimeout)
        }
        return earliest
    }

    public var isOpen: Bool {
        if case .closed = state { return false }
        return true
    }

    public var isEstablished: Bool {
        if case .established = state { return true }
        return false
    }

    /// Why the session closed, once it has.
    public var closeReason: SyncCloseReason? {
        if case .closed(let reason) = state { return reason }
        return nil
    }

    /// Presence currently live on this connection.
    public var livePresence: [PresenceUpdate] {
        presence.values.map(\.update).sorted { $0.peerID < $1.peerID }
    }

    // MARK: Sending and closing

    /// Sends one message. One over the frame limit cannot go out: the session refuses instead,
    /// so the other side learns why rather than waiting for something that never comes.
    mutating func send(_ message: SyncMessage, now: SyncInstant) -> [SyncAction] {
        guard isOpen else { return [] }
        lastSent = now
        do {
            return [.send(try framed(message))]
        } catch {
            return refuse(.protocolViolation(error), now: now)
        }
    }

    /// Frames (and, once encryption started, seals) one message.
    private mutating func framed(_ message: SyncMessage) throws(SyncProtocolError) -> [UInt8] {
        guard let sender else { return try message.frame().encoded(limit: configuration.frameSizeLimit) }
        // The sealed inner frame, in its outer frame, must fit the limit.
        let overhead = Frame.prefixSize + Frame.headerSize + SecretStreamSender.overhead
        let inner = try message.frame().encoded(limit: configuration.frameSizeLimit - overhead)
        let sealed = sender.seal(inner)
        return try SyncMessage.sealed(sealed).frame().encoded(limit: configuration.frameSizeLimit)
    }

    /// Tells the other side why, then closes. (Not through `send`: a goodbye that does not fit a
    /// tiny frame limit is left out rather than refused again.)
    mutating func refuse(_ reason: SyncCloseReason, now: SyncInstant) -> [SyncAction] {
        lastSent = now
        let goodbye = try? framed(.goodbye(reason.goodbyeCode, reason.message))
        return (goodbye.map { [.send($0)] } ?? []) + close(reason)
    }

    mutating func close(_ reason: SyncCloseReason) -> [SyncAction] {
        state = .closed(reason)
        let expired = presence.keys.sorted().map { SyncAction.presenceExpired(peerID: $0) }
        presence = [:]
        return expired + [.close(reason)]
    }
}

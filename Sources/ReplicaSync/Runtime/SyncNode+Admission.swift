import EventRuntime

/// What a node does before it gives an accepted connection a session: at most
/// `maxPendingHandshakes` strangers (and `maxPendingHandshakesPerHost` from one host) in their
/// handshake at once, and a host that failed too many handshakes lately waits (see
/// `HandshakeThrottle`). Refusals are logged through `onEvent`, rate-limited per host.
extension SyncNode {
    /// Whether the accepted connection gets a session; one that does not is closed here.
    func admit(_ socket: any Connection) -> Bool {
        let host: String? = if case .tcp(let host, _)? = socket.remoteAddress { host } else { nil }
        let pending = connections.values.filter { !$0.isDialled && !$0.session.isEstablished }
        if pending.count >= options.maxPendingHandshakes {
            // Closed at once, without a goodbye: the point is to spend nothing on it.
            socket.close()
            refused(
                host: host, address: socket.remoteAddress,
                .tooManyHandshakes(limit: options.maxPendingHandshakes))
            return false
        }
        guard let host else { return true }
        if pending.filter({ $0.remoteHost == host }).count >= options.maxPendingHandshakesPerHost {
            socket.close()
            refused(
                host: host, address: socket.remoteAddress,
                .tooManyHandshakes(limit: options.maxPendingHandshakesPerHost))
            return false
        }
        if let wait = throttle.remainingDelay(for: host, now: loop.now) {
            let reason = SyncCloseReason.throttled(retryAfter: wait)
            if let goodbye = try? SyncMessage.goodbye(.throttled, reason.message).frame().encoded() {
                socket.write(goodbye)
            }
            socket.closeAfterFlushing()
            refused(host: host, address: socket.remoteAddress, reason)
            return false
        }
        return true
    }

    private func refused(host: String?, address: SocketEndpoint?, _ reason: SyncCloseReason) {
        let host = host ?? "local"
        guard let count = throttle.recordRefusal(of: host, now: loop.now) else { return }
        onEvent(.handshakeFailed(address: address ?? .unix(path: host), reason: reason, count: count))
    }

    /// An accepted connection ended before its handshake succeeded: logged, and one more failure
    /// for its host when it had its guess (a connection that sent no hello guessed nothing).
    func handshakeFailed(_ connection: PeerConnection, reason: SyncCloseReason) {
        guard let host = connection.remoteHost, let address = connection.socket.remoteAddress else { return }
        let count =
            connection.session.answeredAGuess
            ? throttle.recordFailure(of: host, now: loop.now)
            : throttle.recordRefusal(of: host, now: loop.now)
        guard let count else { return }
        onEvent(.handshakeFailed(address: address, reason: reason, count: count))
    }

    func watchPauses(of listener: any Listener) {
        let endpoint = listener.endpoint
        listener.onAcceptingPaused = { [weak self] error in
            self?.onEvent(.acceptingPaused(endpoint: endpoint, problem: error.map { String(describing: $0) }))
        }
    }
}

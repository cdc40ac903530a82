import EventRuntime

/// What a node does before it gives an accepted connection a session: at most
/// `maxPendingHandshakes` strangers (and `maxPendingHandshakesPerHost` from one host) in their
/// handshake at once, and a host that failed too many handshakes lately waits (see
/// `HandshakeThrottle`). Refusals are logged through `onEvent`, rate-limited per host; what the
/// rate limit held back is logged with its count once the host's interval has passed.
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
        report(
            throttle.recordRefusal(of: host, now: loop.now), host: host,
            address: address ?? .unix(path: host), reason)
    }

    /// Logs a failure now when its host's line is due; otherwise keeps it for the line that
    /// reports the held-back count one interval after the last, so a burst followed by silence
    /// is still told in full.
    private func report(_ count: Int?, host: String, address: SocketEndpoint, _ reason: SyncCloseReason) {
        guard let count else {
            heldBackFailures[host] = (address, reason)
            scheduleHeldBackReport()
            return
        }
        heldBackFailures[host] = nil
        onEvent(.handshakeFailed(address: address, reason: reason, count: count))
    }

    private func scheduleHeldBackReport() {
        guard heldBackReportTimer == nil, !isShutDown, let due = throttle.nextReportDue else { return }
        heldBackReportTimer = loop.schedule(at: max(due, loop.now)) { [weak self] in
            guard let self else { return }
            heldBackReportTimer = nil
            for (host, count) in throttle.dueReports(now: loop.now) {
                guard let held = heldBackFailures.removeValue(forKey: host) else { continue }
                onEvent(.handshakeFailed(address: held.address, reason: held.reason, count: count))
            }
            scheduleHeldBackReport()
        }
    }

    /// An accepted connection ended before its handshake succeeded: logged, and one more failure
    /// for its host when it had its guess (a connection that sent no hello guessed nothing).
    func handshakeFailed(_ connection: PeerConnection, reason: SyncCloseReason) {
        guard let host = connection.remoteHost, let address = connection.socket.remoteAddress else { return }
        let count =
            connection.session.answeredAGuess
            ? throttle.recordFailure(of: host, now: loop.now)
            : throttle.recordRefusal(of: host, now: loop.now)
        report(count, host: host, address: address, reason)
    }

    func watchPauses(of listener: any Listener) {
        let endpoint = listener.endpoint
        listener.onAcceptingPaused = { [weak self] error in
            self?.onEvent(.acceptingPaused(endpoint: endpoint, problem: error.map { String(describing: $0) }))
        }
    }
}

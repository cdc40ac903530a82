/// One socket and its session inside a `SyncNode`, plus the timer that ticks the session.
final class PeerConnection {
    unowned let node: SyncNode
    let socket: SocketConnection
    private(set) var session: SyncSession
    let endpoint: SocketEndpoint
    let isDialled: Bool
    /// Whether the handshake succeeded at some point (for the event when it ends).
    var wasEstablished = false
    private var timer: EventLoop.TimerID?

    init(node: SyncNode, socket: SocketConnection, session: SyncSession, endpoint: SocketEndpoint, isDialled: Bool) {
        self.node = node
        self.socket = socket
        self.session = session
        self.endpoint = endpoint
        self.isDialled = isDialled
        socket.onBytes = { [unowned self] bytes in drive { $0.receive(bytes, now: node.loop.now) } }
        socket.onClosed = { [unowned self] _ in drive { $0.transportClosed() } }
    }

    /// Runs one session event, carries out its actions, and re-arms the session's timer.
    func drive(_ event: (inout SyncSession) -> [SyncAction]) {
        let actions = event(&session)
        node.perform(actions, from: self)
        rearmTimer()
    }

    func cancelTimer() {
        if let timer { node.loop.cancel(timer) }
        timer = nil
    }

    private func rearmTimer() {
        cancelTimer()
        guard session.isOpen, let deadline = session.nextDeadline else { return }
        timer = node.loop.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            self.timer = nil
            drive { $0.tick(now: node.loop.now) }
        }
    }
}

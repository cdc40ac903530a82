import EventRuntime
import MonotonicTime

/// One connection and its session inside a `SyncNode`, plus the timer that ticks the session.
final class PeerConnection {
    unowned let node: SyncNode
    let socket: any Connection
    private(set) var session: SyncSession
    /// The endpoint dialled, or the listener's that accepted it.
    let endpoint: SocketEndpoint
    /// The node's dial target (the key of its list) this connection was dialled for; nil when
    /// it was accepted.
    let dialTarget: SocketEndpoint?
    var isDialled: Bool { dialTarget != nil }
    /// Whether the handshake succeeded at some point (for the event when it ends).
    var wasEstablished = false
    /// Dialled to a relay with a listing: it subscribes to the node's `relaySubscriptions`.
    var listsCollection = false
    /// How many of the session's subscriptions the node's forwarding index holds.
    var indexedSubscriptionCount = 0
    /// How many listings the remote asked for the node's index holds.
    var indexedListingCount = 0
    /// Whether the node counts this connection among those awaiting durability.
    var isIndexedAsAwaitingDurability = false
    private var timer: EventLoopTimer?
    /// When `timer` fires.
    private var timerDeadline: SyncInstant?
    private var isPerforming = false
    private var pending: [(inout SyncSession, SyncInstant) -> [SyncAction]] = []

    init(
        node: SyncNode, socket: any Connection, session: SyncSession, endpoint: SocketEndpoint,
        dialTarget: SocketEndpoint?
    ) {
        self.node = node
        self.socket = socket
        self.session = session
        self.endpoint = endpoint
        self.dialTarget = dialTarget
        socket.onBytes = { [unowned self] bytes in drive { $0.receive(bytes, now: $1) } }
        socket.onClosed = { [unowned self] _ in drive { session, _ in session.transportClosed() } }
    }

    /// Runs one session event (given the loop's time when it runs), carries out its actions, and
    /// re-arms the session's timer.
    ///
    /// An event raised while this connection's earlier actions are still being carried out (a
    /// relay forwarding to it from inside its own `perform`) waits until they are done: the
    /// session has already framed, and on an encrypted connection sealed, the frames of those
    /// actions, so a frame from the later event must not be written before them.
    func drive(_ event: @escaping (inout SyncSession, SyncInstant) -> [SyncAction]) {
        pending.append(event)
        guard !isPerforming else { return }
        isPerforming = true
        while !pending.isEmpty {
            let next = pending.removeFirst()
            node.perform(next(&session, node.loop.now), from: self)
        }
        isPerforming = false
        if session.replicatedSubscriptions.count != indexedSubscriptionCount
            || session.servedListingCount != indexedListingCount
            || session.awaitsDurability != isIndexedAsAwaitingDurability
        {
            node.index(self)
        }
        rearmTimer()
    }

    /// The remote as the status shows it.
    func peer(_ identity: SyncMessage.Identity) -> SyncNodeStatus.Peer {
        SyncNodeStatus.Peer(
            peerID: identity.peerID, displayName: identity.displayName, transport: endpoint.transport,
            address: socket.remoteAddress, dialled: isDialled ? endpoint : nil)
    }

    /// The remote's host on TCP (what failed handshakes are counted by), nil on a Unix socket.
    var remoteHost: String? {
        if case .tcp(let host, _)? = socket.remoteAddress { host } else { nil }
    }

    /// The remote, while the handshake has succeeded and the connection is open.
    var establishedPeer: SyncNodeStatus.Peer? {
        guard session.isEstablished, let remote = session.remote else { return nil }
        return peer(remote)
    }

    func cancelTimer() {
        if let timer { node.loop.cancel(timer) }
        timer = nil
        timerDeadline = nil
    }

    /// A timer already armed for no later than the session's next deadline stays: a tick before
    /// anything is due does nothing but re-arm. Almost every event moves a deadline later (a
    /// frame sent or received), and a relay's sessions see a thousand events a second.
    private func rearmTimer() {
        guard session.isOpen, let deadline = session.nextDeadline else { return cancelTimer() }
        if timer != nil, let armed = timerDeadline, armed <= deadline { return }
        cancelTimer()
        timerDeadline = deadline
        timer = node.loop.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            self.timer = nil
            timerDeadline = nil
            drive { $0.tick(now: $1) }
        }
    }
}

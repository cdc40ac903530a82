import EventRuntime

/// Something about a node's connections worth telling the person running it: the headless
/// commands print one line per event, the terminal front end can show them in its status bar.
public enum SyncNodeEvent: Equatable, Sendable {
    /// A peer passed the handshake. `dialled` says whether this node dialled `endpoint` (else it
    /// accepted the connection on its listener at `endpoint`).
    case connected(SyncNodeStatus.Peer, endpoint: SocketEndpoint, dialled: Bool)
    /// A connection ended. `peer` is the remote's display name once its hello arrived, else the
    /// endpoint; `wasEstablished` says whether it had passed the handshake.
    case disconnected(
        peer: String, endpoint: SocketEndpoint, dialled: Bool, reason: SyncCloseReason, wasEstablished: Bool)
    /// Dialling a peer failed; the node tries again with backoff (a discovered peer that is gone
    /// is dropped instead).
    case unreachable(endpoint: SocketEndpoint, problem: String)
    /// Handshakes from one remote address failed (wrong token, timeout, protocol error, closed
    /// early) or were turned away (`throttled`, `tooManyHandshakes`): `count` of them since the
    /// last such event for that host, which comes at most once per the throttle's log interval.
    case handshakeFailed(address: SocketEndpoint, reason: SyncCloseReason, count: Int)
    /// A listener stopped accepting because the process is out of descriptors (`problem`), or
    /// accepts again (nil).
    case acceptingPaused(endpoint: SocketEndpoint, problem: String?)
}

/// What the driver of a session must do; the session itself never touches a socket.
public enum SyncAction: Equatable, Sendable {
    /// Write these bytes to the connection, in order.
    case send([UInt8])
    /// The handshake succeeded: the remote is authenticated and replication starts.
    case established(SyncMessage.Identity)
    /// A remote delta for `subscription` was applied to the replica and changed it: the other
    /// sessions that replicate an overlapping subscription should be told `localCommitted()`
    /// (this is how a relay forwards).
    case replicaChanged(SyncSubscription)
    /// The remote relay's listing of a collection changed (`SyncSession.listing(of:)`).
    case listingChanged(String)
    /// A peer's live presence, to show and (on a relay) to forward.
    case deliverPresence(PresenceUpdate)
    /// A peer's presence went quiet or its connection ended: stop showing it.
    case presenceExpired(peerID: UInt64)
    /// Close the connection after sending what came before; the reason is for the user.
    case close(SyncCloseReason)
}

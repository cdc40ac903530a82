/// What applying a remote delta did to the replica.
public enum SyncApplyOutcome: Equatable, Sendable {
    /// Everything in the delta was already there.
    case unchanged
    /// The replica changed; other sessions have something new to send.
    case changed
    /// The delta continues from writes this replica has not seen, so nothing of it was applied.
    /// The session acknowledges with the versions the replica really has, and the sender resends
    /// from there.
    case refused
    /// The replica took the delta but keeps it only once `ticket` is durable (a relay on
    /// PostgreSQL: after the COMMIT that holds it). The session acknowledges when told so through
    /// `SyncSession.durable(_:now:)`; until then the sender keeps the delta in flight and resends
    /// it on another connection if this one ends.
    case deferred(ticket: UInt64)
}

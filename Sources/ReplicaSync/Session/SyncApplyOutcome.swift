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
}

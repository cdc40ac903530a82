/// What sync needs from a replica, in opaque bytes so this module stays independent of the
/// store's encodings. ReplicaStore's replica conforms through `ReplicaSyncAdapter`.
///
/// Called only from the thread that drives the sessions (the event loop).
public protocol SyncReplica: AnyObject {
    /// Encoded version vectors of the documents matching a subscription.
    func encodedVersions(for subscription: SyncSubscription) throws -> [UInt8]
    /// Encoded delta of everything the remote (described by its encoded versions) lacks; nil
    /// when it lacks nothing.
    func encodedChanges(for subscription: SyncSubscription, since remoteVersions: [UInt8]) throws -> [UInt8]?
    /// Applies an encoded delta that arrived for `subscription`, all or nothing, in one
    /// transaction. A replica that cannot apply a delta with a gap refuses it (and gets it resent).
    func applyEncodedChanges(_ delta: [UInt8], for subscription: SyncSubscription) throws -> SyncApplyOutcome
}

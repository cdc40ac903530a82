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
    /// Whether the documents of `subscription` can be answered for now. A replica that reads
    /// them on demand (a relay on PostgreSQL) starts reading them, answers false, and tells the
    /// node once it holds them (`SyncNode.replicaChangedOutsideSessions`); until then the
    /// session sends nothing for that subscription, so the remote waits rather than being told
    /// the documents are empty. Called each time a session starts replicating one.
    func prepare(_ subscription: SyncSubscription) -> Bool
    /// The name and trash time of every document of `collection`, by id (`SyncListingEntry`), or
    /// nil while a replica that reads on demand is still reading them: it tells the node once it
    /// has them, as for `prepare`. A relay answers `listingRequest`s with it.
    func listing(of collection: String) -> [String: SyncListingEntry]?
}

extension SyncReplica {
    /// A replica that holds every document it serves: always ready.
    public func prepare(_ subscription: SyncSubscription) -> Bool { true }
}

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
    /// The encoded whole state of the documents a remote holding `remoteVersions` cannot be sent
    /// a delta for (this replica compacted history it lacks); nil when there is none. Sent before
    /// any delta of the subscription.
    func encodedFullState(for subscription: SyncSubscription, since remoteVersions: [UInt8]) throws
        -> [UInt8]?
    /// Takes a remote's whole state of some documents (see `encodedFullState`), all or nothing.
    func applyEncodedFullState(_ state: [UInt8], for subscription: SyncSubscription) throws
        -> SyncApplyOutcome
    /// What the remote peer says it holds of a subscription (its versions, whenever they arrive):
    /// what compaction waits for.
    func remoteHolds(_ versions: [UInt8], for subscription: SyncSubscription, peer: UInt64)
    /// The name and trash time of every document of `collection`, by id (`SyncListingEntry`), or
    /// nil while a replica that reads on demand is still reading them: it tells the node once it
    /// has them, as for `prepare`. A relay answers `listingRequest`s with it.
    func listing(of collection: String) -> [String: SyncListingEntry]?
}

/// The defaults are for a replica that never compacts and cannot drop events: it sends no whole
/// state, needs no peer versions, and refuses a whole state (events it holds that the sender
/// dropped would stay live). The relay on PostgreSQL takes and sends whole states (RelayStore's
/// `StoredRows`); the SQLite replica through `ReplicaSyncAdapter`.
extension SyncReplica {
    /// A replica that holds every document it serves: always ready.
    public func prepare(_ subscription: SyncSubscription) -> Bool { true }

    public func encodedFullState(for subscription: SyncSubscription, since remoteVersions: [UInt8]) throws
        -> [UInt8]?
    {
        nil
    }

    public func applyEncodedFullState(_ state: [UInt8], for subscription: SyncSubscription) throws
        -> SyncApplyOutcome
    {
        throw SyncReplicaError.fullStateNotSupported
    }

    public func remoteHolds(_ versions: [UInt8], for subscription: SyncSubscription, peer: UInt64) {}
}

/// Why a replica could not take what the session handed it.
public enum SyncReplicaError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A replica that keeps every event was sent a compacted document's whole state.
    case fullStateNotSupported

    public var description: String {
        switch self {
        case .fullStateNotSupported:
            return "this peer keeps every event and cannot take a compacted drawing's whole state"
        }
    }
}

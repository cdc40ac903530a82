import EventRuntime
import ReplicaCore
import ReplicaStore

/// Makes a ReplicaStore `Replica` a `SyncReplica`: versions and deltas in the store's binary
/// encodings, a delta with a gap reported as `.refused` (never half-applied) so the session asks
/// again from the versions the replica has, and local commits passed on to a `SyncNode`.
///
/// Used only on the event loop's thread, like the replica and the node.
public final class ReplicaSyncAdapter: SyncReplica {
    /// The app's subscription: every document of `drawings` (what the relay keeps too).
    public static let drawings = ReplicaSubscription(collection: "drawings")

    public let replica: Replica
    /// Deltas refused for a gap since this adapter was made (each was asked for again).
    public private(set) var refusedDeltaCount = 0
    private weak var node: SyncNode?
    private var commitToken: ObservationToken?
    private var forwardIsScheduled = false

    public init(replica: Replica) {
        self.replica = replica
    }

    /// The replica's subscription registry, as sessions announce it.
    public var subscriptions: [SyncSubscription] {
        replica.subscriptions.map { SyncSubscription(collection: $0.collection, documentID: $0.documentID) }
    }

    /// Tells `node` about every local commit of the replica. Remote deltas the node applied
    /// itself are not passed on: the node already forwards those to its other sessions, and
    /// sending them back to the session they came from would be an echo.
    ///
    /// The call is deferred to the loop and coalesced: a commit made inside a session's own
    /// apply (an observer that writes) cannot re-enter that session, and a burst of commits in
    /// one loop iteration becomes one `localCommitted()`.
    public func forwardLocalCommits(to node: SyncNode) {
        self.node = node
        commitToken = replica.onCommit { [weak self] commit in
            guard commit.isLocal else { return }
            self?.scheduleForward()
        }
    }

    private func scheduleForward() {
        guard !forwardIsScheduled, let node else { return }
        forwardIsScheduled = true
        node.loop.schedule(at: node.loop.now) { [weak self] in
            guard let self else { return }
            forwardIsScheduled = false
            self.node?.localCommitted()
        }
    }

    // MARK: SyncReplica

    public func encodedVersions(for subscription: SyncSubscription) throws -> [UInt8] {
        try replica.versions(collection: subscription.collection, documentID: subscription.documentID)
            .encoded()
    }

    public func encodedChanges(for subscription: SyncSubscription, since remoteVersions: [UInt8]) throws
        -> [UInt8]?
    {
        let since = try ReplicaSyncAdapterError.remoteVersions(remoteVersions)
        let delta = try replica.changes(
            collection: subscription.collection, documentID: subscription.documentID, since: since)
        return delta.isEmpty ? nil : delta.encoded()
    }

    /// Read from the replica's documents each time (a SQLite relay answering its clients'
    /// listings: everything is in the replica). Nil only when the replica cannot be read, which
    /// leaves the request unanswered until the next change.
    public func listing(of collection: String) -> [String: SyncListingEntry]? {
        let query = DQLStatement.select(
            DQLSelect(
                projection: .fields([DQLPath(["_id"]), DQLPath(["name"]), DQLPath(["trashed"])]),
                collection: collection, filter: nil))
        guard let result = try? replica.execute(query) else { return nil }
        var listing: [String: SyncListingEntry] = [:]
        for document in result.documents {
            guard let id = document["_id"]?.stringValue else { continue }
            var trashedAt: Int64?
            if case .number(let value)? = document["trashed"] { trashedAt = Int64(exactly: value.rounded()) }
            listing[id] = SyncListingEntry(name: document["name"]?.stringValue, trashedAt: trashedAt)
        }
        return listing
    }

    public func applyEncodedChanges(_ delta: [UInt8], for subscription: SyncSubscription) throws
        -> SyncApplyOutcome
    {
        let decoded = try decode(delta)
        let covering = ReplicaSubscription(
            collection: subscription.collection, documentID: subscription.documentID)
        if let stray = decoded.documents.lazy.map(\.documentID).first(where: {
            !covering.covers(DocumentKey(collection: decoded.collection, id: $0))
        }) {
            throw ReplicaSyncAdapterError.outsideSubscription(
                collection: decoded.collection, documentID: stray, subscription: subscription.description)
        }
        return try apply(decoded)
    }

    private func decode(_ bytes: [UInt8]) throws -> ReplicaDelta {
        do {
            return try ReplicaDelta(decoding: bytes)
        } catch {
            throw ReplicaSyncAdapterError.undecodable(what: "a delta", reason: "\(error)")
        }
    }

    private func apply(_ delta: ReplicaDelta) throws -> SyncApplyOutcome {
        switch try replica.apply(delta) {
        case .applied(let newEvents, let changedDocumentIDs):
            // New tombstones change nothing visible but still have to reach the other peers.
            return newEvents > 0 || !changedDocumentIDs.isEmpty ? .changed : .unchanged
        case .refused:
            refusedDeltaCount += 1
            return .refused
        }
    }
}

/// Why the adapter could not use what a peer sent.
public enum ReplicaSyncAdapterError: Error, Equatable, Sendable, CustomStringConvertible {
    case undecodable(what: String, reason: String)
    /// A delta for one subscription carried a document outside it.
    case outsideSubscription(collection: String, documentID: String, subscription: String)

    /// A peer's encoded version vectors, or the error that says they cannot be decoded.
    public static func remoteVersions(_ bytes: [UInt8]) throws(ReplicaSyncAdapterError) -> DocumentVersions {
        do {
            return try DocumentVersions(decoding: bytes)
        } catch {
            throw .undecodable(what: "version vectors", reason: "\(error)")
        }
    }

    public var description: String {
        switch self {
        case .undecodable(let what, let reason):
            return "the peer sent \(what) that cannot be decoded (\(reason))"
        case .outsideSubscription(let collection, let documentID, let subscription):
            return "the peer sent \(collection)/\(documentID) in a delta for \(subscription)"
        }
    }
}

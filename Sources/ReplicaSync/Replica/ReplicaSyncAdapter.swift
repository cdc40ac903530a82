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
    /// The group commit of a relay (see `commitInGroups`); nil: each delta is its own transaction.
    private var group: GroupCommit<ReplicaDelta, Result<ApplyOutcome, any Error>>?
    private weak var groupNode: SyncNode?
    private var nextTicket: UInt64 = 1
    /// What the batch being acknowledged settled, reported to the node together.
    private var settledTickets: Set<UInt64> = []
    private var failedTickets: [UInt64: String] = [:]
    private var changedSubscriptions: Set<SyncSubscription> = []
    /// The answers given since the replica's documents last changed (see `Answers`).
    private var answers = Answers(revision: 0)

    /// What the sessions of a relay ask for again and again between two changes of the
    /// replica: a drawing's versions (every ack and every delta carries them), and the delta
    /// since the versions its subscribers hold — after a stroke, its nine watchers are usually
    /// at the same versions and are sent the same bytes. Valid for one `stateRevision`.
    private struct Answers {
        var revision: UInt64
        var versions: [SyncSubscription: [UInt8]] = [:]
        var changes: [SyncSubscription: (since: [UInt8], delta: [UInt8]?)] = [:]
    }

    /// The answers still valid now, others forgotten.
    private func currentAnswers() {
        if answers.revision != replica.stateRevision { answers = Answers(revision: replica.stateRevision) }
    }

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
        commitToken = replica.onCommit(includingPaths: false) { [weak self] commit in
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

    /// Applies the deltas `node`'s sessions receive in groups: every delta of one loop turn goes
    /// into one SQLite transaction (`Replica.apply(_:)` of a batch), and each is acknowledged only
    /// after that COMMIT, through `SyncApplyOutcome.deferred` and `SyncNode.durable`. Until then
    /// nothing of it is in memory either, so nothing is sent on that was not committed. A relay
    /// does this: with a thousand clients, one transaction per delta (a WAL write each) was what
    /// held it back.
    public func commitInGroups(reportingTo node: SyncNode) {
        groupNode = node
        let replica = replica
        let group = GroupCommit<ReplicaDelta, Result<ApplyOutcome, any Error>>(loop: node.loop) {
            batch, finished in
            do {
                let outcomes = try replica.apply(batch)
                let applied = outcomes.count { if case .success(.applied) = $0 { true } else { false } }
                finished(outcomes, applied)
            } catch {
                // The transaction failed: none of the batch was kept.
                finished(Array(repeating: .failure(error), count: batch.count), 0)
            }
        }
        group.onBatchFinished = { [weak self] in self?.reportSettled() }
        self.group = group
    }

    /// Transactions of the group commit and the deltas they held (zeros without one).
    public var commitStatistics: (transactions: Int, deltas: Int) {
        (group?.transactions ?? 0, group?.committedDeltas ?? 0)
    }

    private func settle(_ ticket: UInt64, _ delta: ReplicaDelta, _ outcome: Result<ApplyOutcome, any Error>) {
        switch outcome {
        case .success(.applied(let newEvents, let changedDocumentIDs)):
            settledTickets.insert(ticket)
            // New tombstones change nothing visible but still have to reach the other peers.
            guard newEvents > 0 || !changedDocumentIDs.isEmpty else { return }
            for document in delta.documents {
                changedSubscriptions.insert(
                    SyncSubscription(collection: delta.collection, documentID: document.documentID))
            }
        case .success(.refused):
            // Acknowledged with the versions the replica has: the sender resends from them.
            refusedDeltaCount += 1
            settledTickets.insert(ticket)
        case .failure(let error):
            failedTickets[ticket] = String(describing: error)
        }
    }

    private func reportSettled() {
        let tickets = settledTickets
        let failed = failedTickets
        let changed = changedSubscriptions
        settledTickets = []
        failedTickets = [:]
        changedSubscriptions = []
        groupNode?.durable(tickets, failed: failed, changed: changed)
    }

    // MARK: SyncReplica

    public func encodedVersions(for subscription: SyncSubscription) throws -> [UInt8] {
        currentAnswers()
        if let versions = answers.versions[subscription] { return versions }
        let versions = try replica.versions(
            collection: subscription.collection, documentID: subscription.documentID
        ).encoded()
        answers.versions[subscription] = versions
        return versions
    }

    public func encodedChanges(for subscription: SyncSubscription, since remoteVersions: [UInt8]) throws
        -> [UInt8]?
    {
        currentAnswers()
        if let answer = answers.changes[subscription], answer.since == remoteVersions { return answer.delta }
        let since = try ReplicaSyncAdapterError.remoteVersions(remoteVersions)
        let delta = try replica.changes(
            collection: subscription.collection, documentID: subscription.documentID, since: since)
        let encoded = delta.isEmpty ? nil : delta.encoded()
        answers.changes[subscription] = (remoteVersions, encoded)
        return encoded
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
        guard let group else { return try apply(decoded) }
        // What no honest peer writes ends its session now, as without a group commit.
        for document in decoded.documents {
            try ReplicaState.validate(document.events, documentID: document.documentID)
        }
        let ticket = nextTicket
        nextTicket += 1
        group.submit(decoded) { [weak self] outcome in self?.settle(ticket, decoded, outcome) }
        return .deferred(ticket: ticket)
    }

    public func encodedFullState(for subscription: SyncSubscription, since remoteVersions: [UInt8]) throws
        -> [UInt8]?
    {
        let since = try ReplicaSyncAdapterError.remoteVersions(remoteVersions)
        return replica.fullState(
            collection: subscription.collection, documentID: subscription.documentID, since: since
        )?.encoded()
    }

    public func applyEncodedFullState(_ state: [UInt8], for subscription: SyncSubscription) throws
        -> SyncApplyOutcome
    {
        let decoded: ReplicaFullState
        do {
            decoded = try ReplicaFullState(decoding: state)
        } catch {
            throw ReplicaSyncAdapterError.undecodable(what: "a drawing's whole state", reason: "\(error)")
        }
        try checkCovered(decoded.delta, by: subscription)
        switch try replica.adopt(decoded) {
        case .applied(let newEvents, let changedDocumentIDs):
            return newEvents > 0 || !changedDocumentIDs.isEmpty ? .changed : .unchanged
        case .refused:
            return .refused
        }
    }

    public func remoteHolds(_ versions: [UInt8], for subscription: SyncSubscription, peer: UInt64) {
        // Versions that do not decode count for nothing: that peer holds compaction back no
        // further than it did.
        guard let decoded = try? DocumentVersions(decoding: versions) else { return }
        replica.recordPeerVersions(decoded, collection: subscription.collection, peer: PeerID(peer))
    }

    private func checkCovered(_ delta: ReplicaDelta, by subscription: SyncSubscription) throws {
        let covering = ReplicaSubscription(
            collection: subscription.collection, documentID: subscription.documentID)
        if let stray = delta.documents.lazy.map(\.documentID).first(where: {
            !covering.covers(DocumentKey(collection: delta.collection, id: $0))
        }) {
            throw ReplicaSyncAdapterError.outsideSubscription(
                collection: delta.collection, documentID: stray, subscription: subscription.description)
        }
    }

    private func decode(_ bytes: [UInt8]) throws -> ReplicaDelta {
        do {
            return try ReplicaDelta(decoding: bytes)
        } catch {
            throw ReplicaSyncAdapterError.undecodable(what: "a delta", reason: "\(error)")
        }
    }

    private func apply(_ delta: consuming ReplicaDelta) throws -> SyncApplyOutcome {
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

import EventRuntime
import MonotonicTime
import ReplicaCore
import ReplicaSync

extension RelayReplica {
    /// Whether the subscription's documents are in memory; if not, they are read (the node is
    /// told through `onChanged` when they are) and the answer is no.
    public func prepare(_ subscription: SyncSubscription) -> Bool {
        let whole = SyncSubscription(collection: subscription.collection)
        if resident[subscription] != nil || resident[whole] != nil {
            resident[resident[subscription] != nil ? subscription : whole] = loop.now
            return true
        }
        if !pendingLoads.contains(subscription) {
            pendingLoads.append(subscription)
            readNext()
        }
        return false
    }

    public func encodedVersions(for subscription: SyncSubscription) throws -> [UInt8] {
        cache.versions(collection: subscription.collection, documentID: subscription.documentID).encoded()
    }

    public func encodedChanges(for subscription: SyncSubscription, since remoteVersions: [UInt8]) throws
        -> [UInt8]?
    {
        let since = try ReplicaSyncAdapterError.remoteVersions(remoteVersions)
        let delta = cache.changes(
            collection: subscription.collection, documentID: subscription.documentID, since: since)
        return delta.isEmpty ? nil : delta.encoded()
    }

    /// Checks the delta and hands it to the group commit; the ack waits for its COMMIT. A delta
    /// the cache already holds is answered at once.
    public func applyEncodedChanges(_ bytes: [UInt8], for subscription: SyncSubscription) throws
        -> SyncApplyOutcome
    {
        let delta: ReplicaDelta
        do {
            delta = try ReplicaDelta(decoding: bytes)
        } catch {
            throw ReplicaSyncAdapterError.undecodable(what: "a delta", reason: "\(error)")
        }
        let covering = ReplicaSubscription(
            collection: subscription.collection, documentID: subscription.documentID)
        var isNew = false
        for document in delta.documents {
            let key = DocumentKey(collection: delta.collection, id: document.documentID)
            guard covering.covers(key) else {
                throw ReplicaSyncAdapterError.outsideSubscription(
                    collection: delta.collection, documentID: document.documentID,
                    subscription: subscription.description)
            }
            // What no honest peer writes is refused before it reaches the shared log.
            try ReplicaState.validate(document.events, documentID: document.documentID)
            let have = cache.document(key)?.versionVector ?? VersionVector()
            if document.events.contains(where: { !have.contains($0.dot) }) { isNew = true }
        }
        guard isNew else { return .unchanged }
        let ticket = nextTicket
        nextTicket += 1
        unsaved[ticket] = delta
        submit(ticket, delta)
        return .deferred(ticket: ticket)
    }

    /// Deltas waiting for the database (unacknowledged).
    public var unsavedDeltaCount: Int { unsaved.count }
}

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
        let isNew = try check(delta.documents, of: delta.collection, for: subscription) { key, document in
            let have = cache.document(key)?.versionVector ?? VersionVector()
            return document.events.contains { !have.contains($0.dot) }
        }
        return isNew ? commitLater(.delta(delta)) : .unchanged
    }

    /// The whole state of the documents whose compacted vector (from whole states clients
    /// gave, `StoredRows`) the remote's versions do not cover: a delta would leave it holding
    /// events dropped here.
    public func encodedFullState(for subscription: SyncSubscription, since remoteVersions: [UInt8]) throws
        -> [UInt8]?
    {
        // Asked before every delta: a subscription none of whose documents took one is answered
        // without looking at them.
        guard
            knownFullStates.keys.contains(where: {
                $0.collection == subscription.collection
                    && (subscription.documentID == nil || subscription.documentID == $0.id)
            })
        else { return nil }
        let since = try ReplicaSyncAdapterError.remoteVersions(remoteVersions)
        return cache.fullState(
            collection: subscription.collection, documentID: subscription.documentID, since: since
        )?.encoded()
    }

    /// Takes a client's whole state (it compacted history this relay lacks): checked, then
    /// committed as an immutable row per document with its events (the group commit), and
    /// acknowledged after the COMMIT; only then is it joined into the cache (see `StoredRows`)
    /// and sent on. One that would change nothing here is answered at once.
    public func applyEncodedFullState(_ bytes: [UInt8], for subscription: SyncSubscription) throws
        -> SyncApplyOutcome
    {
        let fullState: ReplicaFullState
        do {
            fullState = try ReplicaFullState(decoding: bytes)
        } catch {
            throw ReplicaSyncAdapterError.undecodable(what: "a drawing's whole state", reason: "\(error)")
        }
        let isNew = try check(fullState.delta.documents, of: fullState.delta.collection, for: subscription) {
            key, document in
            // Whether taking it changes anything: tried on a copy of the document.
            let before = cache.document(key) ?? DocumentState()
            var after = before
            _ = after.adopt(fullState: document.events, compacted: fullState.compacted[document.documentID])
            return after != before || after.compacted != before.compacted
        }
        return isNew ? commitLater(.fullState(fullState)) : .unchanged
    }

    /// Checks a client's documents before they reach the shared log: each in its subscription,
    /// with only events an honest peer writes. Answers whether `changesCache` says any of them
    /// would change what the relay holds.
    private func check(
        _ documents: [ReplicaDelta.DocumentDelta], of collection: String, for subscription: SyncSubscription,
        changesCache: (DocumentKey, ReplicaDelta.DocumentDelta) -> Bool
    ) throws -> Bool {
        let covering = ReplicaSubscription(
            collection: subscription.collection, documentID: subscription.documentID)
        var isNew = false
        for document in documents {
            let key = DocumentKey(collection: collection, id: document.documentID)
            guard covering.covers(key) else {
                throw ReplicaSyncAdapterError.outsideSubscription(
                    collection: collection, documentID: document.documentID,
                    subscription: subscription.description)
            }
            try ReplicaState.validate(document.events, documentID: document.documentID)
            if changesCache(key, document) { isNew = true }
        }
        return isNew
    }

    /// Hands a write to the group commit; its ack waits for the COMMIT.
    private func commitLater(_ write: RelayWrite) -> SyncApplyOutcome {
        let ticket = nextTicket
        nextTicket += 1
        unsaved[ticket] = write
        submit(ticket, write)
        return .deferred(ticket: ticket)
    }

    /// Deltas waiting for the database (unacknowledged).
    public var unsavedDeltaCount: Int { unsaved.count }
}

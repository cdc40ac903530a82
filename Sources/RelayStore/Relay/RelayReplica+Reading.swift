import EventRuntime
import MonotonicTime
import ReplicaCore
import ReplicaSync

/// Reading rows into the cache: documents clients asked for, and what other relays stored in
/// documents in memory (after their notices), one read at a time; dropping what went idle.
extension RelayReplica {
    func noticed(_ notice: CommitNotice) {
        let key = DocumentKey(collection: notice.collection, id: notice.documentID)
        // A listed document not in memory: its entry is read again (a light read); one in
        // memory has its entry worked out from the cache when the new rows are in.
        if listings[key.collection] != nil || pendingListings.contains(key.collection), !isWanted(key) {
            staleEntries.insert(key)
            readNext()
        }
        // A document not in memory is read whole when it is wanted.
        guard isWanted(key),
            notice.isNew(comparedWith: cache.document(key)?.versionVector ?? VersionVector())
        else { return }
        stale.insert(key)
        readNext()
    }

    /// Reads what clients asked for first, then what other relays stored in documents in memory.
    func readNext() {
        guard !isReading, store != nil else { return }
        if let load = pendingLoads.first { return read(load) }
        if let collection = pendingListings.first { return readListing(of: collection, documentID: nil) }
        if stale.isEmpty, let key = staleEntries.min(by: { ($0.collection, $0.id) < ($1.collection, $1.id) })
        {
            staleEntries.remove(key)
            return readListing(of: key.collection, documentID: key.id)
        }
        readStale()
    }

    /// Runs one read: the relay reads one thing at a time, an answer that comes after the
    /// connection it was sent on was replaced is dropped (a reconnect reads everything again),
    /// and a lost connection is handled here; `body` gets every other outcome, and then the next
    /// read starts.
    func read(
        _ request: (RelayEventStore, @escaping (Result<StoredRows, PostgresError>) -> Void) -> Void,
        then body: @escaping (Result<StoredRows, PostgresError>) -> Void
    ) {
        guard let store else { return }
        isReading = true
        request(store) { [weak self] outcome in
            guard let self, store === self.store else { return }
            isReading = false
            if case .failure(let failure) = outcome, failure.kind == .connectionLost { return lost(failure) }
            body(outcome)
            readNext()
        }
    }

    func readStale() {
        guard !isReading, store != nil,
            let key = stale.min(by: { ($0.collection, $0.id) < ($1.collection, $1.id) })
        else { return }
        stale.remove(key)
        let since = cache.versions(collection: key.collection, documentID: key.id)
        let known = known(in: SyncSubscription(collection: key.collection, documentID: key.id))
        read { store, answer in
            store.changes(
                collection: key.collection, documentID: key.id, since: since, known: known, completion: answer
            )
        } then: { [weak self] outcome in
            // A row this program cannot read: the document is read again after the next notice.
            guard let self, case .success(let rows) = outcome else { return }
            integrate(rows, readAgainOnGap: false)
            reportLater()
        }
    }

    /// Enters rows into the cache (`StoredRows.enter`: the join of whole states and events,
    /// per document up to the first gap of each peer; the rest comes with a later read) and
    /// remembers the whole states read. The documents that changed are reported with the
    /// turn's report.
    func integrate(_ rows: StoredRows, readAgainOnGap: Bool) {
        let collection = rows.delta.collection
        // A document not in memory (or dropped while this was read) is read when wanted.
        let (changed, gaps) = rows.enter(into: &cache, wanted: { isWanted($0) })
        for fullState in rows.fullStates {
            let key = DocumentKey(collection: collection, id: fullState.documentID)
            guard isWanted(key) else { continue }
            // Its own, committed here, has no digest yet: the key alone says it has a whole state.
            if fullState.digest.isEmpty {
                knownFullStates[key] = knownFullStates[key] ?? []
            } else {
                knownFullStates[key, default: []].insert(fullState.digest)
            }
        }
        for id in changed { changedThisTurn.insert(SyncSubscription(collection: collection, documentID: id)) }
        if readAgainOnGap {
            for id in gaps { stale.insert(DocumentKey(collection: collection, id: id)) }
        }
        refreshEntries(collection: collection, documentIDs: rows.documentIDs)
        if readAgainOnGap, !stale.isEmpty { readNext() }
    }

    /// The whole states read of the documents of a subscription, by document.
    func known(in subscription: SyncSubscription) -> [String: Set<[UInt8]>] {
        var result: [String: Set<[UInt8]>] = [:]
        for (key, digests) in knownFullStates
        where key.collection == subscription.collection
            && (subscription.documentID == nil || subscription.documentID == key.id)
        {
            result[key.id] = digests
        }
        return result
    }

    // MARK: Documents in memory

    /// Whether a document is in memory, or being read into it.
    func isWanted(_ key: DocumentKey) -> Bool {
        let whole = SyncSubscription(collection: key.collection)
        let one = SyncSubscription(collection: key.collection, documentID: key.id)
        return resident[whole] != nil || resident[one] != nil || pendingLoads.contains(whole)
            || pendingLoads.contains(one)
    }

    /// Reads one subscription's documents (all rows the cache lacks) and keeps them in memory.
    func read(_ load: SyncSubscription) {
        let since = cache.versions(collection: load.collection, documentID: load.documentID)
        let known = known(in: load)
        read { store, answer in
            store.changes(
                collection: load.collection, documentID: load.documentID, since: since, known: known,
                completion: answer)
        } then: { [weak self] outcome in
            guard let self else { return }
            // A row this program cannot read: the client is answered with what could be read,
            // and the rest is read again after the document's next notice.
            if case .success(let rows) = outcome {
                readCount += 1
                readEventCount += rows.delta.documents.reduce(0) { $0 + $1.events.count }
                integrate(rows, readAgainOnGap: false)
            }
            pendingLoads.removeAll { $0 == load }
            resident[load] = loop.now
            // The sessions waiting for it answer now (their `prepare` says yes).
            changedThisTurn.insert(load)
            reportLater()
        }
    }

    func scheduleSweep() {
        let interval = max(idleLifetime / 2, .milliseconds(50))
        sweepTimer = loop.schedule(at: loop.now + interval) { [weak self] in
            guard let self, hasStarted else { return }
            sweep()
            scheduleSweep()
        }
    }

    /// Drops what no live subscription has covered for `idleLifetime`. A document a live
    /// subscription still covers stays, whether it came in with its collection or alone.
    func sweep() {
        guard let live = liveSubscriptions?() else { return }
        let now = loop.now
        for subscription in Array(resident.keys) {
            let covered =
                live.contains(subscription)
                || (subscription.documentID != nil
                    && live.contains(SyncSubscription(collection: subscription.collection)))
            if covered { resident[subscription] = now }
        }
        let expired = resident.filter { now.since($0.value) >= idleLifetime }.map(\.key)
        guard !expired.isEmpty else { return }
        for subscription in expired {
            resident[subscription] = nil
            if subscription.documentID == nil {
                // Its documents that someone still has open stay, as documents of their own.
                for one in live where one.collection == subscription.collection && one.documentID != nil {
                    resident[one] = resident[one] ?? now
                }
            }
        }
        for subscription in expired {
            let ids = subscription.documentID.map { [$0] } ?? cache.documentIDs(in: subscription.collection)
            for id in ids {
                let key = DocumentKey(collection: subscription.collection, id: id)
                guard !isWanted(key) else { continue }
                cache.forget(key)
                knownFullStates[key] = nil
                stale.remove(key)
            }
        }
    }
}

import EventRuntime
import MonotonicTime
import ReplicaCore
import ReplicaSync

/// Reading rows into the cache: documents clients asked for, and what other relays stored in
/// documents in memory (entered from their notices, or read after them), one read at a time,
/// each of many documents at once; dropping what went idle.
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
        // A document whose last read stopped at a gap is read again: this may be the commit
        // that fills it, and the rows after it were not entered.
        guard let events = notice.events, !gapped.contains(key) else {
            stale.insert(key)
            return readNext()
        }
        // The commit's own records: entered like rows read, up to a gap (then the document is
        // read by version vector).
        let complete = integrate(
            StoredRows(
                delta: ReplicaDelta(
                    collection: key.collection, documents: [.init(documentID: key.id, events: events)]),
                fullStates: []),
            readAgainOnGap: true)
        if complete { noticesEntered += 1 }
        reportLater()
    }

    /// Reads what clients asked for first, then what other relays stored in documents in memory.
    func readNext() {
        guard !isReading, store != nil else { return }
        if let load = pendingLoads.first { return read(loadsLike: load) }
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

    /// Reads every stale document of one collection (at most `staleReadLimit`) in one statement,
    /// each since what the cache holds of it.
    func readStale() {
        guard !isReading, store != nil,
            let collection = stale.lazy.map(\.collection).min()
        else { return }
        let keys = stale.filter { $0.collection == collection }.sorted { $0.id < $1.id }.prefix(
            Self.staleReadLimit)
        stale.subtract(keys)
        gapped.subtract(keys)
        staleDocumentsRead += keys.count
        let ids = keys.map(\.id)
        let since = cachedVersions(collection: collection, documentIDs: ids)
        let known = known(collection: collection, documentIDs: ids)
        read { store, answer in
            store.changes(
                collection: collection, documentIDs: ids, since: since, known: known, completion: answer)
        } then: { [weak self] outcome in
            // A row this program cannot read: the document is read again after the next notice.
            guard let self, case .success(let rows) = outcome else { return }
            integrate(rows, readAgainOnGap: false)
            reportLater()
        }
    }

    /// What the cache holds of a whole collection (`documentIDs` nil) or of some of its documents:
    /// what a read since it asks for.
    func cachedVersions(collection: String, documentIDs: [String]?) -> DocumentVersions {
        guard let documentIDs else { return cache.versions(collection: collection, documentID: nil) }
        var versions = DocumentVersions()
        for id in documentIDs {
            versions.vectors[id] = cache.document(DocumentKey(collection: collection, id: id))?.versionVector
        }
        return versions
    }

    /// The most documents one read asks for.
    static let staleReadLimit = 256

    /// What one read asks for, `first` and what can go with it out of `waiting`: a whole
    /// collection alone, or single documents of `first`'s collection together (at most
    /// `staleReadLimit`); with their ids, nil for a whole collection.
    static func readBatch(_ first: SyncSubscription, of waiting: [SyncSubscription])
        -> (batch: [SyncSubscription], documentIDs: [String]?)
    {
        guard first.documentID != nil else { return ([first], nil) }
        let batch = Array(
            waiting.filter { $0.collection == first.collection && $0.documentID != nil }.prefix(
                staleReadLimit))
        return (batch, batch.compactMap(\.documentID))
    }

    /// Enters rows into the cache (`StoredRows.enter`: the join of whole states and events,
    /// per document up to the first gap of each peer, as a row another relay committed later can
    /// be visible before one it committed earlier; the rest comes with a later read) and
    /// remembers the whole states read. The documents that changed are reported with the turn's
    /// report. Answers whether every event continued what the cache held (no gap).
    @discardableResult
    func integrate(_ rows: StoredRows, readAgainOnGap: Bool) -> Bool {
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
        for document in rows.delta.documents {
            let key = DocumentKey(collection: collection, id: document.documentID)
            guard isWanted(key) else { continue }
            let hasGap = gaps.contains(document.documentID)
            if readAgainOnGap {
                if hasGap { stale.insert(key) }
            } else if hasGap {
                gapped.insert(key)
            } else {
                // A read: everything visible of the document is in.
                gapped.remove(key)
            }
        }
        refreshEntries(collection: collection, documentIDs: rows.documentIDs)
        if readAgainOnGap, !stale.isEmpty { readNext() }
        return gaps.isEmpty
    }

    /// The whole states read of the documents of a subscription, by document.
    func known(in subscription: SyncSubscription) -> [String: Set<[UInt8]>] {
        known(collection: subscription.collection, documentIDs: subscription.documentID.map { [$0] })
    }

    /// The whole states read of a collection's documents (nil: all of them), by document.
    func known(collection: String, documentIDs: [String]?) -> [String: Set<[UInt8]>] {
        let wanted = documentIDs.map(Set.init)
        var result: [String: Set<[UInt8]>] = [:]
        for (key, digests) in knownFullStates
        where key.collection == collection && (wanted?.contains(key.id) ?? true) {
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

    /// Reads a subscription's documents (all rows the cache lacks) and keeps them in memory: a
    /// whole collection alone, or every document of `first`'s collection waiting to be read
    /// (at most `staleReadLimit`) together, in one statement.
    func read(loadsLike first: SyncSubscription) {
        let (loads, ids) = Self.readBatch(first, of: pendingLoads)
        let since = cachedVersions(collection: first.collection, documentIDs: ids)
        let known = known(collection: first.collection, documentIDs: ids)
        read { store, answer in
            store.changes(
                collection: first.collection, documentIDs: ids, since: since, known: known, completion: answer
            )
        } then: { [weak self] outcome in
            guard let self else { return }
            // A row this program cannot read: the client is answered with what could be read,
            // and the rest is read again after the document's next notice.
            if case .success(let rows) = outcome {
                readCount += loads.count
                readEventCount += rows.delta.documents.reduce(0) { $0 + $1.events.count }
                integrate(rows, readAgainOnGap: false)
            }
            for load in loads {
                pendingLoads.removeAll { $0 == load }
                resident[load] = loop.now
                // The sessions waiting for it answer now (their `prepare` says yes).
                changedThisTurn.insert(load)
            }
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
                gapped.remove(key)
            }
        }
    }
}

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
            ReplicaDelta(collection: key.collection, documents: [.init(documentID: key.id, events: events)]),
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
        _ request: (RelayEventStore, @escaping (Result<ReplicaDelta, PostgresError>) -> Void) -> Void,
        then body: @escaping (Result<ReplicaDelta, PostgresError>) -> Void
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
        read { store, answer in
            store.changes(collection: collection, documentIDs: ids, since: since, completion: answer)
        } then: { [weak self] outcome in
            // A row this program cannot read: the document is read again after the next notice.
            guard let self, case .success(let delta) = outcome else { return }
            integrate(delta, readAgainOnGap: false)
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

    /// Enters rows into the cache, per document, up to the first gap of each peer (a row another
    /// relay committed later can be visible before one it committed earlier); the rest comes
    /// with a later read. The documents that changed are reported with the turn's report.
    /// Answers whether every event continued what the cache held (no gap).
    @discardableResult
    func integrate(_ delta: ReplicaDelta, readAgainOnGap: Bool) -> Bool {
        var allComplete = true
        for document in delta.documents {
            let key = DocumentKey(collection: delta.collection, id: document.documentID)
            // A document not in memory (or dropped while this was read) is read when wanted.
            guard isWanted(key) else { continue }
            let have = cache.document(key)?.versionVector ?? VersionVector()
            let (usable, complete) = Self.contiguous(document.events, after: have)
            if !complete { allComplete = false }
            if readAgainOnGap {
                if !complete { stale.insert(key) }
            } else if complete {
                // A read: everything visible of the document is in.
                gapped.remove(key)
            } else {
                gapped.insert(key)
            }
            guard !usable.isEmpty else { continue }
            // The relay never writes, so its clock's wall time is never used.
            let outcome = try? cache.apply(
                ReplicaDelta(
                    collection: delta.collection,
                    documents: [.init(documentID: document.documentID, events: usable)]), wall: 0)
            if case .applied(let newEvents, let documents) = outcome, newEvents > 0 || !documents.isEmpty {
                changedThisTurn.insert(
                    SyncSubscription(collection: delta.collection, documentID: document.documentID))
            }
        }
        refreshEntries(of: delta)
        if readAgainOnGap, !stale.isEmpty { readNext() }
        return allComplete
    }

    /// The events that continue `have` without a gap, and whether that is all of them.
    static func contiguous(_ events: [DocumentEvent], after have: VersionVector) -> ([DocumentEvent], Bool) {
        var next: [PeerID: UInt64] = [:]
        var usable: [DocumentEvent] = []
        var complete = true
        for event in events.sorted(by: { $0.dot < $1.dot }) {
            let peer = event.dot.peer
            let expected = next[peer] ?? have[peer] + 1
            if event.dot.counter < expected { continue }
            if event.dot.counter > expected {
                complete = false
                next[peer] = .max
                continue
            }
            next[peer] = expected + 1
            usable.append(event)
        }
        return (usable, complete)
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
        let loads =
            first.documentID == nil
            ? [first]
            : Array(
                pendingLoads.filter { $0.collection == first.collection && $0.documentID != nil }
                    .prefix(Self.staleReadLimit))
        let ids = first.documentID == nil ? nil : loads.compactMap(\.documentID)
        let since = cachedVersions(collection: first.collection, documentIDs: ids)
        read { store, answer in
            store.changes(collection: first.collection, documentIDs: ids, since: since, completion: answer)
        } then: { [weak self] outcome in
            guard let self else { return }
            // A row this program cannot read: the client is answered with what could be read,
            // and the rest is read again after the document's next notice.
            if case .success(let delta) = outcome {
                readCount += loads.count
                readEventCount += delta.documents.reduce(0) { $0 + $1.events.count }
                integrate(delta, readAgainOnGap: false)
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
                stale.remove(key)
                gapped.remove(key)
            }
        }
    }
}

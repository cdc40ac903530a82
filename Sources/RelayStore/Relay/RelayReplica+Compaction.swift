import EventRuntime
import MonotonicTime
import ReplicaCore
import ReplicaSync

/// Compaction on the relay tier, automatic and in small steps (DECISIONS.md, "The relay on
/// PostgreSQL compacts its documents"). Every relay writes what its clients say they hold to
/// the shared `drawtogether_peer_versions` table, so all relays of a database wait for all
/// their clients; a relay compacts the documents it holds in memory, one at a time, by reading
/// the document's rows whole and storing a compacted whole state that replaces the rows it was
/// made from (`RelayEventStore.compact`). Each step is one statement on the loop's connection,
/// answered through a callback: the loop never waits for the database. Every other relay holding
/// the document reads the new whole state after its notice, as it reads a client's; this one
/// reads it when the compaction's answer comes.
extension RelayReplica {
    /// What a client says it holds of a subscription (its versions, each ack's, each delta's
    /// sender versions): kept as sent, decoded and written by the next step.
    public func remoteHolds(_ versions: [UInt8], for subscription: SyncSubscription, peer: UInt64) {
        compactor.heard[RelayCompactor.Heard(peer: PeerID(peer), subscription: subscription)] = versions
    }

    /// Compactions this relay stored, the events they dropped and the rows they deleted.
    public var compactionStatistics: (compactions: Int, droppedEvents: Int, deletedRows: Int) {
        (compactor.compactions, compactor.droppedEvents, compactor.deletedRows)
    }

    func scheduleCompactionStep() {
        guard hasStarted, compactor.timer == nil else { return }
        compactor.timer = loop.schedule(at: loop.now + compaction.stepInterval) { [weak self] in
            guard let self else { return }
            compactor.timer = nil
            guard hasStarted else { return }
            compactionStep()
            scheduleCompactionStep()
        }
    }

    /// One step, when the database is there and no step's statement is on the wire: write what
    /// clients said they hold, else forget clients past the retention time (hourly), else
    /// compact one document that looks worth it.
    func compactionStep() {
        guard isAvailable, let store, !compactor.isBusy else { return }
        let now = compaction.wallClock()
        let cutoff = now - compaction.peerRetentionMilliseconds
        let rows = compactor.takeHeard(now: now, resolution: compaction.lastSeenResolution)
        if !rows.isEmpty {
            compactor.isBusy = true
            return store.recordPeerVersions(rows) { [weak self] outcome in
                guard let self else { return }
                compactor.isBusy = false
                if case .failure = outcome { compactor.rewrite(rows) }
            }
        }
        if compactor.lastForgotten.map({ loop.now.since($0) >= compaction.forgetInterval }) ?? true {
            compactor.lastForgotten = loop.now
            compactor.forget(before: cutoff)
            compactor.isBusy = true
            return store.forgetPeerVersions(seenBefore: cutoff) { [weak self] _ in
                self?.compactor.isBusy = false
            }
        }
        guard compaction.compactsAutomatically, let key = nextCompaction(cutoff: cutoff) else { return }
        compactor.lastAttempt[key] = loop.now
        compactor.isBusy = true
        store.compact(
            collection: key.collection, documentID: key.id, countedSince: cutoff,
            minimumDropped: compaction.minimumDroppedEvents
        ) { [weak self] outcome in
            guard let self else { return }
            compactor.isBusy = false
            // A failed compaction changed nothing (one statement); the document is looked at
            // again when its clients hold more.
            guard case .success(let done?) = outcome else { return }
            compactor.compactions += 1
            compactor.droppedEvents += done.droppedEvents
            compactor.deletedRows += done.deletedEvents + done.deletedFullStates
            if done.raced { compactor.recheck.insert(key) }
            // Its own notice is dropped unread (`listen(ignoringOwn:)`), so this relay reads the
            // new whole state itself, as the others do after the notice.
            if isWanted(key) {
                stale.insert(key)
                readNext()
            }
        }
    }

    /// The most candidates one step looks at (each look walks a document's events once).
    static let compactionLooksPerStep = 8

    /// A document another relay compacted at the same time as this one, else the first
    /// candidate in memory, not compacted here within `documentInterval`, that this relay's own
    /// clients would let lose at least `minimumDroppedEvents` and a quarter of its events (other
    /// relays' clients can only hold it back further: the read decides).
    func nextCompaction(cutoff: Int64) -> DocumentKey? {
        let now = loop.now
        for key in compactor.recheck.sorted(by: { ($0.collection, $0.id) < ($1.collection, $1.id) }) {
            guard isWanted(key) else {
                compactor.recheck.remove(key)
                continue
            }
            if let last = compactor.lastAttempt[key], now.since(last) < compaction.documentInterval {
                continue
            }
            compactor.recheck.remove(key)
            return key
        }
        var looks = 0
        for key in compactor.candidates.sorted(by: { ($0.collection, $0.id) < ($1.collection, $1.id) }) {
            guard looks < Self.compactionLooksPerStep else { return nil }
            guard isWanted(key), let document = cache.document(key) else {
                compactor.candidates.remove(key)
                continue
            }
            if let last = compactor.lastAttempt[key], now.since(last) < compaction.documentInterval {
                continue
            }
            looks += 1
            compactor.candidates.remove(key)
            guard
                let stable = compactor.estimatedStable(for: key, own: document.versionVector, cutoff: cutoff)
            else { continue }
            let droppable = document.droppableCount(stable: stable)
            if droppable >= max(1, compaction.minimumDroppedEvents), droppable * 4 >= document.eventCount {
                return key
            }
        }
        return nil
    }
}

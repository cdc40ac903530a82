import ReplicaCore

/// Compaction in the store (the rule is `DocumentState.compact(stable:)`; DECISIONS.md, "The
/// replica at the floor"): a document's *stable* vector is the pointwise minimum of its own
/// version vector and of what every peer heard from within `peerRetentionMilliseconds` has said
/// it holds (`recordPeerVersions`, fed by the sync session). Background steps drop the removed
/// events it covers, when a snapshot starts anyway or when enough would go, and write the new
/// snapshot with the compacted vector; a peer whose vector does not cover that vector gets the
/// document's whole state (`fullState`, `adopt`).
extension Replica {
    /// Records what `peer` says it holds of the documents of `collection` (its versions, as sync
    /// receives them). Documents it holds more of may compact: a background step looks.
    public func recordPeerVersions(_ versions: DocumentVersions, collection: String, peer: PeerID) {
        guard !isReadOnly, peer != peerID else { return }
        let now = configuration.wallClock()
        var found = false
        for (id, vector) in versions.vectors {
            let key = DocumentKey(collection: collection, id: id)
            if peerVersions.record(vector, peer: peer, document: key, at: now) {
                compactionCandidates.insert(key)
                found = true
            }
        }
        if found || !peerVersions.unsaved.isEmpty { backgroundWorkAppeared?() }
    }

    /// The peers that hold compaction back now (heard from within the retention time).
    public var countedPeers: [PeerID] {
        peerVersions.peers(seenSince: configuration.wallClock() - configuration.peerRetentionMilliseconds)
    }

    /// What every counted peer and this replica hold of a document. With no peer counted (none
    /// met yet, or none heard from within the retention time) that is all this replica holds:
    /// nobody can be sent a delta of what it drops, and every peer it meets gets the whole
    /// state, which is then smaller than the delta of everything would have been.
    func stableVector(for key: DocumentKey) -> VersionVector {
        let cutoff = configuration.wallClock() - configuration.peerRetentionMilliseconds
        guard let document = state.document(key) else { return VersionVector() }
        return peerVersions.stable(document.versionVector, for: key, seenSince: cutoff)
    }

    /// Compacts every document as far as the counted peers allow and writes every snapshot to
    /// the end (the background steps do the same a step at a time; this is for a caller that
    /// wants it done now: a test, the bench), then checkpoints SQLite's log once. Returns the
    /// events dropped: counted as the events held before less those held after, because the
    /// snapshots it starts compact their documents too.
    @discardableResult
    public func compact() throws -> Int {
        if isReadOnly { throw ReplicaError.readOnly(directory: directory) }
        let held = heldEventCount
        try writeEverySnapshot()
        for key in state.allDocuments.keys.sorted(by: { ($0.collection, $0.id) < ($1.collection, $1.id) }) {
            guard !state.compact(key, stable: stableVector(for: key)).isEmpty else { continue }
            var job = startCheckpoint(of: key)
            job.dropsEvents = true
            checkpointJob = job
            try writeEverySnapshot()
        }
        compactionCandidates = []
        while database.hasPagesToVacuum { try database.vacuumStep() }
        database.checkpointLog()
        return held - heldEventCount
    }

    /// Every event held in memory, live or removed, in every document.
    private var heldEventCount: Int {
        state.allDocuments.values.reduce(0) { $0 + $1.eventCount }
    }

    /// One compaction step, when no snapshot is under way: looks at one document whose peers
    /// acknowledged more, and compacts it (starting its snapshot) when at least
    /// `compactionMinimumEvents` and a quarter of its events would go, so a snapshot is rewritten
    /// only for garbage worth its size. False when there was nothing to look at.
    func compactionStep() -> Bool {
        guard configuration.compactsAutomatically, checkpointJob == nil,
            let key = compactionCandidates.min(by: { ($0.collection, $0.id) < ($1.collection, $1.id) })
        else { return false }
        compactionCandidates.remove(key)
        guard let document = state.document(key) else { return true }
        let stable = stableVector(for: key)
        let droppable = document.droppableCount(stable: stable)
        guard droppable >= max(1, configuration.compactionMinimumEvents),
            droppable * 4 >= document.events.count
        else { return true }
        state.compact(key, stable: stable)
        var job = startCheckpoint(of: key)
        job.dropsEvents = true
        checkpointJob = job
        return true
    }

    /// Writes the peer versions recorded since the last step, and forgets peers not heard from
    /// within the retention time. False when there was nothing to write.
    func savePeerVersionsStep() throws -> Bool {
        guard !peerVersions.unsaved.isEmpty else { return false }
        let rows = peerVersions.takeUnsaved()
        do {
            try database.connection.transaction {
                try database.save(rows)
                let cutoff = configuration.wallClock() - configuration.peerRetentionMilliseconds
                try database.forgetPeerVersions(seenBefore: cutoff)
            }
        } catch {
            peerVersions.markUnsaved(rows.map(\.key))
            throw error
        }
        return true
    }
}

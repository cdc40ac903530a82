import ReplicaCore

extension Replica {
    /// A document's snapshot being written, one part per step (see `ReplicaDatabase+Log`).
    struct CheckpointJob {
        var key: DocumentKey
        var generation: Int64
        /// The last log sequence committed when the job started: every event of those rows is
        /// in memory, so in `dots`, and goes into a part.
        var through: Int64
        /// The log events of the document when the job started; those after it stay in the log.
        var logEventsAtStart: Int
        var dots: [Dot]
        /// The document's compacted vector when the job started (no compaction runs while a job
        /// is under way), stored with the generation.
        var compacted: VersionVector
        var next = 0
        var part: Int64 = 0
        var written = 0
        /// Whether compaction dropped events when it started: its old pages are worth vacuuming.
        var dropsEvents = false
    }

    /// Writes every document's snapshot that has log rows, to the end, then checkpoints SQLite's
    /// log into the database file: afterwards a reopen reads snapshots only. The loop's idle
    /// steps (`backgroundStep`) do this a part at a time; this is for a caller that wants it done
    /// now (a clean shutdown, a test, the bench).
    public func checkpoint() throws {
        if isReadOnly { throw ReplicaError.readOnly(directory: directory) }
        try writeEverySnapshot()
        database.checkpointLog()
    }

    /// `checkpoint()` without the log's checkpoint, for a caller that writes more first.
    func writeEverySnapshot() throws {
        while try checkpointStep(onlyDue: false) {}
    }

    /// Whether a commit left background work: a snapshot under way or a document whose log has
    /// grown enough for one. The owner of the loop then calls `backgroundStep` when it is idle.
    public var hasBackgroundWork: Bool {
        !isReadOnly
            && (checkpointJob != nil || !dueDocuments.isEmpty || !peerVersions.unsaved.isEmpty || vacuumDue
                || database.isLogCheckpointDue
                || (configuration.compactsAutomatically && !compactionCandidates.isEmpty))
    }

    /// One small step of background work, for the loop to run when it is idle (never inside a
    /// commit, so a commit costs only its own transaction), the first of: the next part of the
    /// snapshot under way, or the start of one that is due (compacting the document first); a
    /// compaction of a document whose peers acknowledged more (see `Replica+Compaction`); writing
    /// the peer versions heard; giving freed pages back to the file system. True when it did
    /// something. A failure here loses nothing (the log still holds every commit), so it drops
    /// the unfinished snapshot, which a later step starts again.
    @discardableResult
    public func backgroundStep() -> Bool {
        guard hasBackgroundWork, activeTransaction == nil else { return false }
        do {
            if try checkpointStep(onlyDue: true) { return true }
            if compactionStep() { return true }
            if try savePeerVersionsStep() { return true }
            if vacuumDue {
                if database.hasPagesToVacuum { try database.vacuumStep() } else { vacuumDue = false }
                return true
            }
            if database.isLogCheckpointDue {
                database.checkpointLog()
                return true
            }
            return false
        } catch {
            checkpointJob = nil
            return false
        }
    }

    /// Writes the next part of the snapshot under way, or starts one for the document that needs
    /// it most: `onlyDue` starts one only when the document's log has grown to the size of its
    /// snapshot (at least `checkpointMinimumLogEvents`), so each event is rewritten a bounded
    /// number of times. False when there was nothing to do.
    private func checkpointStep(onlyDue: Bool) throws -> Bool {
        guard var job = checkpointJob ?? startCheckpoint(onlyDue: onlyDue) else { return false }
        let document = state.document(job.key)
        var events: [DocumentEvent] = []
        let end = min(job.dots.count, job.next + max(1, configuration.checkpointPartEvents))
        for dot in job.dots[job.next..<end] {
            if let event = document?.event(at: dot) { events.append(event) }
        }
        job.next = end
        let finished = job.next == job.dots.count
        let clock = state.clock.latest
        try database.connection.transaction {
            if job.part == 0 { try database.discardUnfinishedSnapshots(job.key) }
            if !events.isEmpty || job.part == 0 {
                try database.writeSnapshotPart(
                    job.key, generation: job.generation, part: job.part, events: events)
                job.part += 1
            }
            if finished {
                try database.finishSnapshot(
                    job.key, generation: job.generation, parts: job.part, through: job.through,
                    compacted: job.compacted)
                // The log rows it deletes held the clock; the metadata keeps it now.
                try database.setMeta("clock_milliseconds", clock.milliseconds)
                try database.setMeta("clock_counter", Int64(clock.counter))
            }
        }
        job.written += events.count
        if finished {
            let logged = storedDocuments[job.key]?.logEvents ?? 0
            storedDocuments[job.key] = ReplicaDatabase.StoredDocument(
                generation: job.generation, through: job.through, snapshotEvents: job.written,
                logEvents: max(0, logged - job.logEventsAtStart))
            checkpointJob = nil
            if job.dropsEvents { vacuumDue = true }
        } else {
            checkpointJob = job
        }
        return true
    }

    /// Whether a document's log has grown enough for a new snapshot.
    func isCheckpointDue(_ stored: ReplicaDatabase.StoredDocument) -> Bool {
        stored.logEvents > 0
            && stored.logEvents >= max(1, configuration.checkpointMinimumLogEvents, stored.snapshotEvents)
    }

    /// The next snapshot to write: among the documents a commit made due (so a commit looks at
    /// the documents it wrote, not at every document), or among all with log rows; the one with
    /// the most log first.
    func startCheckpoint(onlyDue: Bool) -> CheckpointJob? {
        let keys = onlyDue ? Array(dueDocuments) : Array(storedDocuments.keys)
        dueDocuments = []
        let candidates = keys.compactMap { key in
            storedDocuments[key].map { (key: key, stored: $0) }
        }.filter { $0.stored.logEvents > 0 && (!onlyDue || isCheckpointDue($0.stored)) }
        guard
            let (key, _) = candidates.max(by: {
                ($0.stored.logEvents, $1.key.collection, $1.key.id) < (
                    $1.stored.logEvents, $0.key.collection, $0.key.id
                )
            })
        else { return nil }
        // The others stay due for the steps after this snapshot.
        for other in candidates where other.key != key && isCheckpointDue(other.stored) {
            dueDocuments.insert(other.key)
        }
        return startCheckpoint(of: key)
    }

    /// A snapshot job for one document, compacted first as far as its peers allow (the snapshot
    /// is written anyway, so compaction costs it nothing more).
    func startCheckpoint(of key: DocumentKey) -> CheckpointJob {
        let stored = storedDocuments[key] ?? ReplicaDatabase.StoredDocument()
        let dropped =
            configuration.compactsAutomatically ? state.compact(key, stable: stableVector(for: key)) : []
        let document = state.document(key)
        var job = CheckpointJob(
            key: key, generation: stored.generation + 1, through: database.nextSequence - 1,
            logEventsAtStart: stored.logEvents, dots: document?.dots ?? [],
            compacted: document?.compacted ?? VersionVector())
        job.dropsEvents = !dropped.isEmpty
        return job
    }

    /// Writes a document's whole snapshot in the caller's transaction (taking a peer's whole
    /// state must not leave a reopen the events it dropped), replacing a snapshot under way.
    ///
    /// When `received` (the whole state taken) kept its event block and the document holds
    /// every event of it, the snapshot is one part: that block as it came, then a block of the
    /// document's other events and of those removed here since (loading is order-free and a
    /// removed form wins), so the taken state is not encoded again.
    func writeWholeSnapshot(_ key: DocumentKey, received: ReplicaDelta.DocumentDelta? = nil) throws {
        if checkpointJob?.key == key { checkpointJob = nil }
        let stored = storedDocuments[key] ?? ReplicaDatabase.StoredDocument()
        let document = state.document(key)
        let generation = stored.generation + 1
        try database.discardUnfinishedSnapshots(key)
        var part: Int64 = 0
        let eventCount = document?.eventCount ?? 0
        if let received, let block = received.encodedBlock,
            let others = document?.eventsBeside(received: received.events)
        {
            try database.writeSnapshotPart(
                key, generation: generation, part: 0,
                record: DocumentEvent.encodedList(blocks: [block], then: others))
            part = 1
        } else {
            var events: [DocumentEvent] = []
            events.reserveCapacity(eventCount)
            document?.forEachEvent { events.append($0) }
            let size = max(1, configuration.checkpointPartEvents)
            var start = 0
            repeat {
                let end = min(events.count, start + size)
                try database.writeSnapshotPart(
                    key, generation: generation, part: part, events: Array(events[start..<end]))
                part += 1
                start = end
            } while start < events.count
        }
        let through = database.nextSequence - 1
        try database.finishSnapshot(
            key, generation: generation, parts: part, through: through,
            compacted: document?.compacted ?? VersionVector())
        let clock = state.clock.latest
        try database.setMeta("clock_milliseconds", clock.milliseconds)
        try database.setMeta("clock_counter", Int64(clock.counter))
        storedDocuments[key] = ReplicaDatabase.StoredDocument(
            generation: generation, through: through, snapshotEvents: eventCount, logEvents: 0)
        dueDocuments.remove(key)
        vacuumDue = true
    }
}

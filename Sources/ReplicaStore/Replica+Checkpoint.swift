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
        var next = 0
        var part: Int64 = 0
        var written = 0
    }

    /// Writes every document's snapshot that has log rows, to the end: afterwards a reopen reads
    /// snapshots only. Commits run a step at a time on their own; this is for a caller that wants
    /// it done now (a clean shutdown, a test, the bench).
    public func checkpoint() throws {
        if isReadOnly { throw ReplicaError.readOnly(directory: directory) }
        while try checkpointStep(onlyDue: false) {}
    }

    /// One step of checkpointing, run after each commit: it writes one part when a snapshot is
    /// due or under way. A failure here loses nothing (the log still holds every commit), so
    /// it drops the unfinished snapshot, which a later commit starts again.
    func checkpointAfterCommit() {
        guard !isReadOnly, activeTransaction == nil else { return }
        do {
            _ = try checkpointStep(onlyDue: true)
        } catch {
            checkpointJob = nil
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
                    job.key, generation: job.generation, parts: job.part, through: job.through)
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
    private func startCheckpoint(onlyDue: Bool) -> CheckpointJob? {
        let keys = onlyDue ? Array(dueDocuments) : Array(storedDocuments.keys)
        dueDocuments = []
        let candidates = keys.compactMap { key in
            storedDocuments[key].map { (key: key, stored: $0) }
        }.filter { $0.stored.logEvents > 0 && (!onlyDue || isCheckpointDue($0.stored)) }
        guard
            let (key, stored) = candidates.max(by: {
                ($0.stored.logEvents, $1.key.collection, $1.key.id) < (
                    $1.stored.logEvents, $0.key.collection, $0.key.id
                )
            })
        else { return nil }
        // The others stay due for the steps after this snapshot.
        for other in candidates where other.key != key && isCheckpointDue(other.stored) {
            dueDocuments.insert(other.key)
        }
        let dots = state.document(key)?.dots ?? []
        return CheckpointJob(
            key: key, generation: stored.generation + 1, through: database.nextSequence - 1,
            logEventsAtStart: stored.logEvents, dots: dots)
    }
}

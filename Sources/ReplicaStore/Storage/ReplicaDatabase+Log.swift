import ReplicaCore

/// Schema 3: the replica as a log of commits and a snapshot per document.
///
/// A commit appends one `batches` row per document it wrote: the current form of every event it
/// touched, encoded together (`DocumentEvent.encodedList`), with a checksum and the clock as of
/// that commit (since schema 5 the table is keyed by the row's sequence alone: `schemaFiveSQL`).
/// A document's snapshot is its whole state in `snapshot_parts` rows of one generation, written a
/// part at a time by the checkpoint (see `Replica+Checkpoint`) and made
/// current by its `snapshots` row, which also says through which log sequence it reaches. Opening
/// reads the current snapshot parts, then the log rows after them. An event's stored form only
/// ever moves from live to removed, and integrating is idempotent and order-free, so a snapshot
/// part taken later than its generation started, or a log row also covered by the snapshot, loads
/// to the same document.
extension ReplicaDatabase {
    /// What is stored of one document, as the checkpoint schedule needs it.
    struct StoredDocument: Equatable {
        /// The generation of the current snapshot (0: none yet) and the last log sequence it covers.
        var generation: Int64 = 0
        var through: Int64 = 0
        var snapshotEvents = 0
        /// Events in log rows after `through`.
        var logEvents = 0
    }

    static let schemaThreeSQL = [
        """
        CREATE TABLE batches(collection TEXT NOT NULL, document TEXT NOT NULL, sequence INTEGER NOT NULL,
            record BLOB NOT NULL, checksum INTEGER NOT NULL, clock_milliseconds INTEGER NOT NULL,
            clock_counter INTEGER NOT NULL, PRIMARY KEY(collection, document, sequence)) WITHOUT ROWID
        """,
        """
        CREATE TABLE snapshots(collection TEXT NOT NULL, document TEXT NOT NULL, generation INTEGER NOT NULL,
            through INTEGER NOT NULL, parts INTEGER NOT NULL, PRIMARY KEY(collection, document)) WITHOUT ROWID
        """,
        """
        CREATE TABLE snapshot_parts(collection TEXT NOT NULL, document TEXT NOT NULL,
            generation INTEGER NOT NULL, part INTEGER NOT NULL, record BLOB NOT NULL, checksum INTEGER NOT NULL,
            PRIMARY KEY(collection, document, generation, part)) WITHOUT ROWID
        """,
    ]

    /// Schema 5: the log keyed by its sequence alone (a rowid table), not by collection, document
    /// and sequence (WITHOUT ROWID). A row is only ever appended at the end of the log, and
    /// read back in full on a reopen, where the order of documents does not matter (loading is
    /// order-free): SQLite appends an integer key at the end of a rowid table in about three
    /// quarters of the time it takes to place a row by a key of two texts and an integer
    /// (DECISIONS.md, stop 26). The rows of one document, deleted once its snapshot covers them,
    /// are found among the range of sequences the snapshot reaches.
    static let schemaFiveSQL = [
        """
        CREATE TABLE batches_by_sequence(sequence INTEGER PRIMARY KEY, collection TEXT NOT NULL,
            document TEXT NOT NULL, record BLOB NOT NULL, checksum INTEGER NOT NULL,
            clock_milliseconds INTEGER NOT NULL, clock_counter INTEGER NOT NULL)
        """,
        """
        INSERT INTO batches_by_sequence(sequence, collection, document, record, checksum, clock_milliseconds,
            clock_counter)
        SELECT sequence, collection, document, record, checksum, clock_milliseconds, clock_counter FROM batches
        """,
        "DROP TABLE batches",
        "ALTER TABLE batches_by_sequence RENAME TO batches",
    ]

    /// Loads the committed snapshots and log into `state`, in one read transaction (a writer may be
    /// committing meanwhile). Returns what is stored per document and the highest clock in the log.
    func loadLog(into state: inout ReplicaState) throws -> (
        documents: [DocumentKey: StoredDocument], clock: HybridTimestamp
    ) {
        try connection.readTransaction {
            var documents: [DocumentKey: StoredDocument] = [:]
            var expectedParts: [DocumentKey: Int64] = [:]
            var compactedVectors: [DocumentKey: VersionVector] = [:]
            // Schema 3 (read as it is by a read-only open) has no compacted vectors.
            let compactedColumns = storedVersion >= 4 ? "compacted, compacted_checksum" : "x'', 0"
            try connection.cached(
                "SELECT collection, document, generation, through, parts, \(compactedColumns) FROM snapshots"
            )
            .forEachRow { row in
                guard let collection = row.text(0), let document = row.text(1),
                    let generation = row.integer(2),
                    let through = row.integer(3), let parts = row.integer(4),
                    let compacted = row.blob(5), let checksum = row.integer(6)
                else { throw wrongType("a snapshot row") }
                let key = DocumentKey(collection: collection, id: document)
                documents[key] = StoredDocument(generation: generation, through: through)
                expectedParts[key] = parts
                compactedVectors[key] = try self.compacted(
                    compacted, checksum: checksum, key: key, generation: generation)
            }
            var partsSeen: [DocumentKey: Int64] = [:]
            // The parts of one document's snapshot are loaded together, as one record is, so that
            // its maps are made at their size once (parts are 256 events; a drawing is 100,000).
            var snapshot: (key: DocumentKey, events: [DocumentEvent])?
            try connection.cached(
                "SELECT collection, document, generation, part, record, checksum FROM snapshot_parts "
                    + "ORDER BY collection, document, generation, part"
            ).forEachRow { row in
                guard let collection = row.text(0), let document = row.text(1),
                    let generation = row.integer(2),
                    let part = row.integer(3), let record = row.blob(4), let checksum = row.integer(5)
                else { throw wrongType("a snapshot row") }
                let key = DocumentKey(collection: collection, id: document)
                // Parts of another generation are an unfinished checkpoint's, or an old one's.
                guard documents[key]?.generation == generation else { return }
                let place = "part \(part) of the snapshot of document '\(collection)/\(document)'"
                guard part == partsSeen[key, default: 0] else {
                    throw ReplicaError.damaged(
                        path: path, detail: "\(place) is out of order (a part is missing)")
                }
                partsSeen[key] = part + 1
                guard
                    checksum
                        == EventChecksum.of(
                            collection: collection, document: document, peer: generation, counter: part,
                            record: record)
                else { throw ReplicaError.damaged(path: path, detail: "\(place) fails its checksum") }
                let events = try decoded(record, place: place)
                documents[key]?.snapshotEvents += events.count
                if snapshot?.key == key {
                    snapshot?.events += events
                } else {
                    // Taken out, so the loader moves the events into the state without a copy.
                    if case let (previous, held)? = snapshot.take() {
                        state.loadResolvedEvents(consume held, into: previous)
                    }
                    snapshot = (key, events)
                }
            }
            if case let (key, held)? = snapshot.take() { state.loadResolvedEvents(consume held, into: key) }
            for (key, parts) in expectedParts where partsSeen[key, default: 0] != parts {
                throw ReplicaError.damaged(
                    path: path,
                    detail:
                        "the snapshot of document '\(key.collection)/\(key.id)' lacks parts (\(partsSeen[key, default: 0]) of \(parts))"
                )
            }
            var clock = HybridTimestamp.zero
            var highest = documents.values.map(\.through).max() ?? 0
            try connection.cached(
                "SELECT collection, document, sequence, record, checksum, clock_milliseconds, clock_counter "
                    + "FROM batches ORDER BY sequence"
            ).forEachRow { row in
                guard let collection = row.text(0), let document = row.text(1), let sequence = row.integer(2),
                    let record = row.blob(3), let checksum = row.integer(4),
                    let milliseconds = row.integer(5),
                    let counter = row.integer(6)
                else { throw wrongType("a log row") }
                highest = max(highest, sequence)
                let key = DocumentKey(collection: collection, id: document)
                let place = "the log entry \(sequence) of document '\(collection)/\(document)'"
                guard
                    checksum
                        == EventChecksum.of(
                            collection: collection, document: document, peer: sequence, counter: 0,
                            record: record)
                else { throw ReplicaError.damaged(path: path, detail: "\(place) fails its checksum") }
                clock = max(
                    clock,
                    HybridTimestamp(milliseconds: milliseconds, counter: UInt32(truncatingIfNeeded: counter)))
                // Rows a finished snapshot covers are deleted with it; one left behind is harmless.
                guard sequence > documents[key]?.through ?? 0 else { return }
                try loadDecoded(record, place: place, into: &state, key: key) {
                    documents[key, default: StoredDocument()].logEvents += $0
                }
            }
            nextSequence = highest + 1
            // After the events: a compacted vector makes the loader ignore missing events it covers.
            for (key, compacted) in compactedVectors { state.loadCompacted(compacted, into: key) }
            return (documents, clock)
        }
    }

    /// Loads the events of a stored log row into `state` as they are decoded, 16,384 at a
    /// time (`recordChunkEvents`), telling `counted` how many each time: a large row (a first
    /// flush of 100,000 strokes) is never held decoded whole beside the state it becomes, and
    /// each chunk is loaded while its events are still in the processor's caches.
    private func loadDecoded(
        _ record: [UInt8], place: String, into state: inout ReplicaState, key: DocumentKey,
        counted: (Int) -> Void
    ) throws {
        var chunk: [DocumentEvent] = []
        func load() {
            counted(chunk.count)
            // Moved out (a copy left in `chunk` would make the loader copy every event).
            var events: [DocumentEvent] = []
            swap(&events, &chunk)
            state.loadResolvedEvents(consume events, into: key)
        }
        // Events of the block being read not yet decoded: a chunk is made at its size.
        var remaining = 0
        do {
            try DocumentEvent.decodeList(record, reserve: { remaining = $0 }) { event in
                if chunk.isEmpty { chunk.reserveCapacity(min(max(remaining, 1), Self.recordChunkEvents)) }
                remaining -= 1
                chunk.append(event)
                if chunk.count == Self.recordChunkEvents { load() }
            }
        } catch {
            throw undecodable(place)
        }
        if !chunk.isEmpty { load() }
    }

    /// Events decoded before they are loaded (`loadDecoded`).
    static let recordChunkEvents = 16_384

    /// The events of one stored record (a snapshot part or a log row), each in its stored form:
    /// the stored rows are a resolved state, loaded by `ReplicaState.loadResolvedEvents` (see
    /// `DocumentState.loadResolved`) a whole record or a whole snapshot at a time.
    private func decoded(_ record: [UInt8], place: String) throws -> [DocumentEvent] {
        do {
            return try DocumentEvent.decodedList(record)
        } catch {
            throw undecodable(place)
        }
    }

    private func undecodable(_ place: String) -> ReplicaError {
        ReplicaError.damaged(path: path, detail: "\(place) cannot be decoded")
    }

    private func wrongType(_ what: String) -> ReplicaError {
        ReplicaError.damaged(path: path, detail: "\(what) has a value of the wrong type")
    }

    /// Appends one log row per document; the caller holds the transaction.
    func append(_ changes: [ReplicaState.UnsavedDocument], clock: HybridTimestamp) throws {
        // A document whose received block was stored while it merged may hold nothing more.
        for change in changes
        where !change.dots.isEmpty && !(change.blocks.isEmpty && change.unencoded.isEmpty) {
            // A delta's blocks as they came, and the events they do not hold, encoded.
            try appendRow(
                change.key, record: DocumentEvent.encodedList(blocks: change.blocks, then: change.unencoded),
                clock: clock)
        }
    }

    /// Appends one log row per received block, each a stored list of that block as it came;
    /// the caller holds the transaction.
    func append(blocks: [(key: DocumentKey, block: ArraySlice<UInt8>)], clock: HybridTimestamp) throws {
        for (key, block) in blocks {
            try appendRow(key, record: DocumentEvent.encodedList(blocks: [block], then: []), clock: clock)
        }
    }

    /// Appends one log row: the next sequence, `record`, its checksum and the clock.
    private func appendRow(_ key: DocumentKey, record: [UInt8], clock: HybridTimestamp) throws {
        let insert = try appendStatement()
        let sequence = nextSequence
        nextSequence += 1
        let checksum = EventChecksum.of(
            collection: key.collection, document: key.id, peer: sequence, counter: 0, record: record)
        // Bound in place: the key's texts and the record are read by SQLite as they lie.
        var collection = key.collection
        var document = key.id
        try collection.withUTF8 { collection in
            try document.withUTF8 { document in
                try record.withUnsafeBytes { record in
                    try insert.runInPlace { row in
                        try row.text(collection, at: 1)
                        try row.text(document, at: 2)
                        try row.integer(sequence, at: 3)
                        try row.blob(record, at: 4)
                        try row.integer(checksum, at: 5)
                        try row.integer(clock.milliseconds, at: 6)
                        try row.integer(Int64(clock.counter), at: 7)
                    }
                }
            }
        }
    }

    /// One part of a document's snapshot of `generation`; the caller holds the transaction.
    func writeSnapshotPart(_ key: DocumentKey, generation: Int64, part: Int64, events: [DocumentEvent]) throws
    {
        try writeSnapshotPart(
            key, generation: generation, part: part, record: DocumentEvent.encodedList(events))
    }

    /// One part of a document's snapshot, already encoded as a stored list.
    func writeSnapshotPart(_ key: DocumentKey, generation: Int64, part: Int64, record: [UInt8]) throws {
        let checksum = EventChecksum.of(
            collection: key.collection, document: key.id, peer: generation, counter: part, record: record)
        try connection.cached(
            "INSERT OR REPLACE INTO snapshot_parts(collection, document, generation, part, record, checksum) "
                + "VALUES(?, ?, ?, ?, ?, ?)"
        ).run([
            .text(key.collection), .text(key.id), .integer(generation), .integer(part), .blob(record),
            .integer(checksum),
        ])
    }

    /// Makes `generation` (with `parts` parts) the document's snapshot, reaching through log
    /// sequence `through`, and deletes what it replaces: older parts and the log rows it covers.
    /// `compacted` nil is the migration to schema 3, which runs before the columns exist.
    func finishSnapshot(
        _ key: DocumentKey, generation: Int64, parts: Int64, through: Int64, compacted: VersionVector?
    ) throws {
        let document: [SQLiteValue] = [.text(key.collection), .text(key.id)]
        let row: [SQLiteValue] = document + [.integer(generation), .integer(through), .integer(parts)]
        if let compacted {
            let (record, checksum) = Self.compactedRecord(compacted, key: key, generation: generation)
            try connection.cached(
                "INSERT OR REPLACE INTO snapshots(collection, document, generation, through, parts, compacted, "
                    + "compacted_checksum) VALUES(?, ?, ?, ?, ?, ?, ?)"
            ).run(row + [.blob(record), .integer(checksum)])
        } else {
            try connection.cached(
                "INSERT OR REPLACE INTO snapshots(collection, document, generation, through, parts) VALUES(?, ?, ?, ?, ?)"
            ).run(row)
        }
        try connection.cached(
            "DELETE FROM snapshot_parts WHERE collection = ? AND document = ? AND generation <> ?"
        ).run(document + [.integer(generation)])
        try connection.cached("DELETE FROM batches WHERE sequence <= ? AND collection = ? AND document = ?")
            .run([.integer(through)] + document)
    }
}

extension ReplicaDatabase {
    /// Events per snapshot part that the migration writes (a checkpoint takes its size from the
    /// configuration).
    static let snapshotPartEvents = 256

    /// Deletes the parts of snapshots that never became current (a checkpoint cut short by a
    /// crash or a failure), before a new one starts writing its own.
    func discardUnfinishedSnapshots(_ key: DocumentKey) throws {
        try connection.cached(
            "DELETE FROM snapshot_parts WHERE collection = ? AND document = ? AND generation <> "
                + "coalesce((SELECT generation FROM snapshots WHERE collection = ? AND document = ?), 0)"
        ).run([.text(key.collection), .text(key.id), .text(key.collection), .text(key.id)])
    }
}

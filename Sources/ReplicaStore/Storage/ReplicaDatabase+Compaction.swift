import ReplicaCore

/// Schema 4: what compaction keeps on disk. Each document's compacted vector in its snapshot
/// row (written with the generation that first lacks the dropped events, so the two become
/// current together), and the vectors peers said they hold (`peer_versions`). The file is in
/// incremental auto-vacuum mode, so the pages a compacted snapshot frees are given back to the
/// file system a few at a time by background steps.
extension ReplicaDatabase {
    static let schemaFourSQL = [
        "ALTER TABLE snapshots ADD COLUMN compacted BLOB NOT NULL DEFAULT x''",
        "ALTER TABLE snapshots ADD COLUMN compacted_checksum INTEGER NOT NULL DEFAULT 0",
        """
        CREATE TABLE peer_versions(peer INTEGER NOT NULL, collection TEXT NOT NULL, document TEXT NOT NULL,
            vector BLOB NOT NULL, last_seen INTEGER NOT NULL, PRIMARY KEY(peer, collection, document)) WITHOUT ROWID
        """,
    ]

    /// Pages freed per background vacuum step.
    static let vacuumPagesPerStep = 256

    /// The compacted vector as the snapshot row stores it (empty when nothing was dropped), and
    /// its checksum.
    static func compactedRecord(_ compacted: VersionVector, key: DocumentKey, generation: Int64) -> (
        record: [UInt8], checksum: Int64
    ) {
        guard !compacted.counters.isEmpty else { return ([], 0) }
        let record = DocumentVersions([key.id: compacted]).encoded()
        return (
            record,
            EventChecksum.of(
                collection: key.collection, document: key.id, peer: generation, counter: -1, record: record)
        )
    }

    /// Reads a snapshot row's compacted vector, checked.
    func compacted(_ record: [UInt8], checksum: Int64, key: DocumentKey, generation: Int64) throws
        -> VersionVector
    {
        guard !record.isEmpty else { return VersionVector() }
        let place = "the compacted vector of document '\(key.collection)/\(key.id)'"
        guard
            EventChecksum.of(
                collection: key.collection, document: key.id, peer: generation, counter: -1, record: record)
                == checksum
        else { throw ReplicaError.damaged(path: path, detail: "\(place) fails its checksum") }
        do {
            let versions = try DocumentVersions(decoding: record)
            guard versions.vectors.count == 1, let vector = versions.vectors[key.id] else {
                throw ReplicaError.damaged(path: path, detail: "\(place) names another document")
            }
            return vector
        } catch let error as ReplicaError {
            throw error
        } catch {
            throw ReplicaError.damaged(path: path, detail: "\(place) cannot be decoded")
        }
    }

    func loadPeerVersions() throws -> PeerVersionTable {
        var table = PeerVersionTable()
        guard storedVersion >= 4 else { return table }
        try connection.cached("SELECT peer, collection, document, vector, last_seen FROM peer_versions")
            .forEachRow { row in
                guard let peer = row.integer(0), let collection = row.text(1), let document = row.text(2),
                    let record = row.blob(3), let lastSeen = row.integer(4)
                else {
                    throw ReplicaError.damaged(
                        path: path, detail: "a peer version row has a value of the wrong type")
                }
                // A row that does not decode is a peer not counted: it gets the whole state.
                guard let versions = try? DocumentVersions(decoding: record),
                    let vector = versions.vectors[document]
                else { return }
                table.load(
                    PeerVersionTable.Row(vector: vector, lastSeen: lastSeen),
                    peer: PeerID(UInt64(bitPattern: peer)),
                    document: DocumentKey(collection: collection, id: document))
            }
        return table
    }

    /// Writes peer version rows; the caller holds the transaction.
    func save(_ rows: [(key: PeerVersionTable.Key, row: PeerVersionTable.Row)]) throws {
        let insert = try connection.cached(
            "INSERT OR REPLACE INTO peer_versions(peer, collection, document, vector, last_seen) VALUES(?, ?, ?, ?, ?)"
        )
        for (key, row) in rows {
            try insert.run([
                .integer(Int64(bitPattern: key.peer.rawValue)), .text(key.document.collection),
                .text(key.document.id), .blob(DocumentVersions([key.document.id: row.vector]).encoded()),
                .integer(row.lastSeen),
            ])
        }
    }

    /// Deletes the rows last written before `cutoff`: a peer that counts still has its rows
    /// rewritten hourly, and a document's row it stopped listing only makes compaction wait.
    func forgetPeerVersions(seenBefore cutoff: Int64) throws {
        try connection.cached("DELETE FROM peer_versions WHERE last_seen < ?").run([.integer(cutoff)])
    }

    /// Free pages worth giving back: more than a quarter of the file and more than one step
    /// (never in a file that is not in incremental auto-vacuum mode: nothing would give them back).
    var hasPagesToVacuum: Bool {
        guard (try? connection.run("PRAGMA auto_vacuum").first?.first?.integer) == 2,
            let free = try? connection.run("PRAGMA freelist_count").first?.first?.integer,
            let pages = try? connection.run("PRAGMA page_count").first?.first?.integer
        else { return false }
        return free >= Int64(Self.vacuumPagesPerStep) && free * 4 >= pages
    }

    /// Gives up to `vacuumPagesPerStep` free pages back to the file system (incremental
    /// auto-vacuum; a file not in that mode is left as it is).
    func vacuumStep() throws {
        _ = try connection.run("PRAGMA incremental_vacuum(\(Self.vacuumPagesPerStep))")
    }

    /// Puts a file made before schema 4 into incremental auto-vacuum mode (a `VACUUM`, once).
    func enableIncrementalVacuum() throws {
        let mode = try connection.run("PRAGMA auto_vacuum").first?.first?.integer ?? 0
        guard mode != 2 else { return }
        try connection.run("PRAGMA auto_vacuum = INCREMENTAL")
        try connection.run("VACUUM")
    }
}

import CSQLite
import Glibc
import ReplicaCore

/// The replica's SQLite file: schema and migrations, and the rows behind `ReplicaState`.
///
/// Since schema 3 the documents are a log of commits and a snapshot per document (see
/// `ReplicaDatabase+Log`); schemas 1 and 2 kept one row per event (`ReplicaDatabase+Legacy`),
/// which a read-only open still reads as it is and the first writer migrates. Every record
/// carries a checksum (see `EventChecksum`); metadata (peer id, clock) and the subscription
/// registry are small tables beside it.
final class ReplicaDatabase {
    static let fileName = "replica.sqlite"
    /// Marks the file as ours ("DRW1"), so a foreign SQLite database is refused rather than changed.
    static let applicationID: Int64 = 0x4452_5731
    /// Migration `n` (counted from 1) brings `user_version` from n - 1 to n: its SQL, then the
    /// step that fills in what SQL cannot compute.
    static let migrations: [(sql: [String], fill: (@Sendable (ReplicaDatabase) throws -> Void)?)] = [
        (
            [
                "CREATE TABLE replica_meta(key TEXT PRIMARY KEY NOT NULL, value) WITHOUT ROWID",
                """
                CREATE TABLE events(collection TEXT NOT NULL, document TEXT NOT NULL, peer INTEGER NOT NULL,
                    counter INTEGER NOT NULL, record BLOB NOT NULL,
                    PRIMARY KEY(collection, document, peer, counter)) WITHOUT ROWID
                """,
                """
                CREATE TABLE subscriptions(collection TEXT NOT NULL, whole_collection INTEGER NOT NULL,
                    document TEXT NOT NULL, PRIMARY KEY(collection, whole_collection, document)) WITHOUT ROWID
                """,
            ], nil
        ),
        // Every event row gets a checksum, so a damaged record is found instead of decoded.
        (["ALTER TABLE events ADD COLUMN checksum INTEGER"], { try $0.fillChecksums() }),
        // The log of commits and the per-document snapshots; every event row moves into a
        // snapshot of its document, and the events table goes.
        (schemaThreeSQL, { try $0.moveEventsIntoSnapshots() }),
        // Compaction: each snapshot's compacted vector, and what peers said they hold.
        (schemaFourSQL, nil),
        // The log keyed by its sequence alone: a commit's row is appended, not placed by key.
        (schemaFiveSQL, nil),
    ]
    static var schemaVersion: Int32 { Int32(migrations.count) }

    private(set) var connection: SQLiteConnection
    let path: String
    /// The schema version in the file; a read-only open of an older one reads it as it is.
    private(set) var storedVersion: Int32 = 0
    /// The sequence number the next log row gets: past every row and every snapshot's reach.
    var nextSequence: Int64 = 1
    /// When the writer checkpoints SQLite's log: in idle steps (nil when opened to read).
    private(set) var checkpointer: WALCheckpointer?
    /// The log's `INSERT`, run by every commit: held here so it is not looked up by its text.
    private var appendInsert: SQLiteStatement?

    func appendStatement() throws -> SQLiteStatement {
        if let appendInsert { return appendInsert }
        let statement = try connection.cached(
            "INSERT INTO batches(collection, document, sequence, record, checksum, clock_milliseconds, "
                + "clock_counter) VALUES(?, ?, ?, ?, ?, ?, ?)")
        appendInsert = statement
        return statement
    }

    /// `logCheckpointPages`: how long SQLite's log may grow before an idle step checkpoints it
    /// (`WALCheckpointer`).
    init(directory: String, readOnly: Bool, busyTimeoutMilliseconds: Int32, logCheckpointPages: Int)
        throws
    {
        path = directory + "/" + Self.fileName
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw ReplicaError.notAReplica(path: path, reason: "it is a directory, not a database file")
        }
        do {
            if !readOnly { try Self.createPrivately(path, directory: directory) }
            connection = try SQLiteConnection(
                path: path, readOnly: readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            let isNew: Bool
            do {
                isNew = try checkHeader()
            } catch  where readOnly && !Self.hasWriteAheadLog(path) {
                // A store the user cannot write (its directory or file read-only): SQLite cannot
                // make the shared-memory file a WAL reader needs. With no WAL there is no writer,
                // and the main file is the whole database, so it is read as an immutable file.
                connection = try SQLiteConnection(
                    path: path, readOnly: true, immutable: true,
                    busyTimeoutMilliseconds: busyTimeoutMilliseconds)
                isNew = try checkHeader()
            }
            if !readOnly {
                // Only after the header said the file is ours (or new): a foreign database is
                // refused before anything is written to it.
                // Before the header is written (switching to WAL writes it), so a new file
                // starts in incremental auto-vacuum mode.
                if isNew { try connection.run("PRAGMA auto_vacuum = INCREMENTAL") }
                let mode = try connection.run("PRAGMA journal_mode=WAL").first?.first?.text
                guard mode == "wal" else {
                    throw ReplicaError.notAReplica(path: path, reason: "cannot switch it to WAL mode")
                }
                // In WAL mode NORMAL keeps every commit across a crash of the process; only a
                // power loss can drop the last few.
                try connection.run("PRAGMA synchronous=NORMAL")
                let checkpointer = WALCheckpointer(idlePages: logCheckpointPages)
                connection.checkpointWhenIdle(checkpointer)
                self.checkpointer = checkpointer
            }
            let before = storedVersion
            try migrate(readOnly: readOnly, isNew: isNew)
            // A file of an older schema moves to the same mode once (a VACUUM outside the
            // migration's transaction, which it cannot run in).
            if !readOnly && !isNew && before < 4 { try enableIncrementalVacuum() }
        } catch let error as SQLiteError {
            switch error.code & 0xFF {
            case SQLITE_NOTADB:
                throw ReplicaError.notAReplica(
                    path: path, reason: "damaged or not a database: \(error.message)")
            case SQLITE_CANTOPEN:
                throw ReplicaError.cannotOpenStore(
                    directory: directory, reason: "cannot open \(path): \(error.message)")
            default:
                throw error.classified(path: path)
            }
        }
    }

    deinit {
        // The hook holds the checkpointer unretained: it is taken off before either goes.
        if checkpointer != nil { connection.checkpointWhenIdle(nil) }
    }

    /// Whether SQLite's log has grown enough for an idle step to checkpoint it.
    var isLogCheckpointDue: Bool { checkpointer?.isDue ?? false }

    /// Checkpoints SQLite's log (between transactions). One that cannot run now (another
    /// process is checkpointing) is left for a step after the next commit.
    func checkpointLog() {
        checkpointer?.checkpoint(connection)
    }

    /// Creates the file before SQLite does, so it is private (0600) whatever the umask; SQLite
    /// gives its WAL and shared-memory files the mode of the database file.
    private static func createPrivately(_ path: String, directory: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            if code == EACCES || code == EROFS || code == EPERM {
                throw ReplicaError.cannotWrite(path: path, reason: StoreFiles.reason(errno: code))
            }
            throw ReplicaError.cannotOpenStore(
                directory: directory, reason: "cannot open \(path): \(StoreFiles.reason(errno: code))")
        }
        close(descriptor)
    }

    /// Whether `path-wal` holds anything (a writer is open, or one was killed before it checkpointed).
    private static func hasWriteAheadLog(_ path: String) -> Bool {
        var info = stat()
        return stat(path + "-wal", &info) == 0 && info.st_size > 0
    }

    /// Reads the header: true for a new (empty) database; refuses one of another program or of
    /// a newer version. Reads only.
    private func checkHeader() throws -> Bool {
        let applicationID = try connection.run("PRAGMA application_id").first?.first?.integer ?? 0
        let version = Int32(
            truncatingIfNeeded: try connection.run("PRAGMA user_version").first?.first?.integer ?? 0)
        let tables = try connection.run("SELECT count(*) FROM sqlite_master").first?.first?.integer ?? 0
        let isNew = applicationID == 0 && version == 0 && tables == 0
        if !isNew && applicationID != Self.applicationID {
            throw ReplicaError.notAReplica(path: path, reason: "it is a SQLite database of another program")
        }
        if version > Self.schemaVersion {
            throw ReplicaError.unsupportedSchemaVersion(
                path: path, found: version, supported: Self.schemaVersion)
        }
        storedVersion = version
        return isNew
    }

    private func migrate(readOnly: Bool, isNew: Bool) throws {
        guard storedVersion < Self.schemaVersion else { return }
        if readOnly {
            // An older schema is read as it is, without the checks the newer one adds. A file
            // with nothing in it yet (a creation cut short) has nothing to read: the program
            // treats it as no replica before it gets here.
            if isNew {
                throw ReplicaError.notAReplica(path: path, reason: "nothing has been written to it yet")
            }
            return
        }
        try connection.transaction {
            for migration in Self.migrations[Int(storedVersion)...] {
                for sql in migration.sql { try connection.run(sql) }
                try migration.fill?(self)
            }
            // PRAGMAs take no bound parameters; both numbers are constants of this program.
            try connection.run("PRAGMA application_id = \(Self.applicationID)")
            try connection.run("PRAGMA user_version = \(Self.schemaVersion)")
        }
        storedVersion = Self.schemaVersion
    }

    // MARK: Metadata

    func metaInteger(_ key: String) throws -> Int64? {
        try connection.cached("SELECT value FROM replica_meta WHERE key = ?").run([.text(key)]).first?.first?
            .integer
    }

    func setMeta(_ key: String, _ value: Int64) throws {
        try connection.cached("INSERT OR REPLACE INTO replica_meta(key, value) VALUES(?, ?)").run([
            .text(key), .integer(value),
        ])
    }

    /// Loads every stored document into `state`: the log and snapshots, or, in a file of schema
    /// 1 or 2 opened to read, its event rows. Returns what the checkpoint needs per document and
    /// the clock the log holds (zero when there is none).
    func load(into state: inout ReplicaState) throws -> (
        documents: [DocumentKey: StoredDocument], clock: HybridTimestamp
    ) {
        guard storedVersion >= 3 else {
            try loadLegacyEvents(into: &state, checked: storedVersion >= 2)
            return ([:], .zero)
        }
        return try loadLog(into: &state)
    }

    // MARK: Subscriptions

    func loadSubscriptions() throws -> [ReplicaSubscription] {
        try connection.run(
            "SELECT collection, whole_collection, document FROM subscriptions ORDER BY 1, 2 DESC, 3"
        ).compactMap { row in
            guard row.count == 3, let collection = row[0].text, let whole = row[1].integer,
                let document = row[2].text
            else { return nil }
            return ReplicaSubscription(collection: collection, documentID: whole == 1 ? nil : document)
        }
    }

    func insertSubscription(_ subscription: ReplicaSubscription) throws {
        try connection.run(
            "INSERT OR IGNORE INTO subscriptions(collection, whole_collection, document) VALUES(?, ?, ?)",
            [
                .text(subscription.collection), .integer(subscription.documentID == nil ? 1 : 0),
                .text(subscription.documentID ?? ""),
            ])
    }
}

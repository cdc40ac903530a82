import CSQLite
import ReplicaCore

/// The replica's SQLite file: schema and migrations, and the rows behind `ReplicaState`.
///
/// Each event is one row holding its binary encoding; metadata (peer id, clock) and the
/// subscription registry are small tables beside it.
final class ReplicaDatabase {
    static let fileName = "replica.sqlite"
    /// Marks the file as ours ("DRW1"), so a foreign SQLite database is refused rather than changed.
    static let applicationID: Int64 = 0x4452_5731
    /// Migration `n` (counted from 1) brings `user_version` from n - 1 to n.
    static let migrations: [[String]] = [
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
        ]
    ]
    static var schemaVersion: Int32 { Int32(migrations.count) }

    let connection: SQLiteConnection
    let path: String

    init(directory: String, readOnly: Bool, busyTimeoutMilliseconds: Int32) throws {
        path = directory + "/" + Self.fileName
        do {
            connection = try SQLiteConnection(
                path: path, readOnly: readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            if !readOnly {
                let mode = try connection.run("PRAGMA journal_mode=WAL").first?.first?.text
                guard mode == "wal" else {
                    throw ReplicaError.notAReplica(path: path, reason: "cannot switch it to WAL mode")
                }
                // In WAL mode NORMAL keeps every commit across a crash of the process; only a
                // power loss can drop the last few.
                try connection.run("PRAGMA synchronous=NORMAL")
            }
            try checkAndMigrate(readOnly: readOnly)
        } catch let error as SQLiteError {
            switch error.code & 0xFF {
            case SQLITE_NOTADB:
                throw ReplicaError.notAReplica(
                    path: path, reason: "damaged or not a database: \(error.message)")
            case SQLITE_CORRUPT:
                throw ReplicaError.damaged(path: path, detail: error.message)
            case SQLITE_CANTOPEN:
                throw ReplicaError.cannotOpenStore(
                    directory: directory, reason: "cannot open \(path): \(error.message)")
            default:
                throw error
            }
        }
    }

    private func checkAndMigrate(readOnly: Bool) throws {
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
        guard version < Self.schemaVersion else { return }
        if readOnly {
            throw ReplicaError.notAReplica(
                path: path, reason: isNew ? "it is empty" : "it needs a migration; open it for writing once")
        }
        try connection.transaction {
            for migration in Self.migrations[Int(version)...] {
                for sql in migration { try connection.run(sql) }
            }
            // PRAGMAs take no bound parameters; both numbers are constants of this program.
            try connection.run("PRAGMA application_id = \(Self.applicationID)")
            try connection.run("PRAGMA user_version = \(Self.schemaVersion)")
        }
    }

    // MARK: Metadata

    func metaInteger(_ key: String) throws -> Int64? {
        try connection.run("SELECT value FROM replica_meta WHERE key = ?", [.text(key)]).first?.first?.integer
    }

    func setMeta(_ key: String, _ value: Int64) throws {
        try connection.run(
            "INSERT OR REPLACE INTO replica_meta(key, value) VALUES(?, ?)", [.text(key), .integer(value)])
    }

    // MARK: Events

    func loadEvents(into state: inout ReplicaState) throws {
        let rows = try connection.run(
            "SELECT collection, document, record FROM events ORDER BY collection, document, peer, counter")
        for row in rows {
            guard row.count == 3, let collection = row[0].text, let document = row[1].text,
                let record = row[2].blob,
                let event = try? DocumentEvent(decoding: record)
            else {
                throw ReplicaError.damaged(path: path, detail: "an event record cannot be decoded")
            }
            state.load(event, into: DocumentKey(collection: collection, id: document))
        }
    }

    /// Writes the current form of changed events; the caller holds the transaction.
    func save(_ changes: [(key: DocumentKey, events: [DocumentEvent])]) throws {
        let statement = try connection.prepare(
            "INSERT OR REPLACE INTO events(collection, document, peer, counter, record) VALUES(?, ?, ?, ?, ?)"
        )
        for (key, events) in changes {
            for event in events {
                try statement.run([
                    .text(key.collection), .text(key.id),
                    .integer(Int64(bitPattern: event.dot.peer.rawValue)),
                    .integer(Int64(bitPattern: event.dot.counter)), .blob(event.encoded()),
                ])
            }
        }
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

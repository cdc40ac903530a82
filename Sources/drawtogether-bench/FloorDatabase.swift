import CSQLite

/// The floor's database (`FloorCommit`): a fresh SQLite file with a table of the log's shape,
/// in WAL mode with `synchronous=NORMAL` as the replica runs, its three statements prepared
/// once. Each `commit` is one transaction inserting one row of the given bytes.
final class FloorDatabase {
    private let database: OpaquePointer
    private let begin: OpaquePointer
    private let insert: OpaquePointer
    private let finish: OpaquePointer
    /// The rows committed so far (each row's sequence and the checksum and clock it is bound with).
    private(set) var count = 0

    /// With `autoVacuum` the file is in incremental auto-vacuum mode, as the replica's is; with
    /// `checkpointsApart` SQLite's automatic checkpoint is off (the caller runs `checkpoint()`).
    init(path: String, autoVacuum: Bool, checkpointsApart: Bool) throws {
        var handle: OpaquePointer?
        guard
            sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK,
            let database = handle
        else { throw BenchError.setup("cannot open the floor database") }
        self.database = database
        var prepared: [OpaquePointer] = []
        do {
            for sql in (autoVacuum ? ["PRAGMA auto_vacuum = INCREMENTAL"] : []) + [
                "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL",
                """
                CREATE TABLE batches(sequence INTEGER PRIMARY KEY, collection TEXT NOT NULL, document TEXT NOT NULL,
                    record BLOB NOT NULL, checksum INTEGER NOT NULL, clock_milliseconds INTEGER NOT NULL,
                    clock_counter INTEGER NOT NULL)
                """,
            ] + (checkpointsApart ? ["PRAGMA wal_autocheckpoint=0"] : []) {
                guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
                    throw BenchError.setup("floor: \(String(cString: sqlite3_errmsg(database)))")
                }
            }
            for sql in [
                "BEGIN IMMEDIATE",
                "INSERT INTO batches(collection, document, sequence, record, checksum, clock_milliseconds, "
                    + "clock_counter) VALUES('drawings', 'bench', ?, ?, ?, ?, 0)",
                "COMMIT",
            ] {
                var statement: OpaquePointer?
                guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK, let statement
                else {
                    throw BenchError.setup("floor: \(String(cString: sqlite3_errmsg(database)))")
                }
                prepared.append(statement)
            }
        } catch {
            prepared.forEach { sqlite3_finalize($0) }
            sqlite3_close_v2(database)
            throw error
        }
        (begin, insert, finish) = (prepared[0], prepared[1], prepared[2])
    }

    deinit {
        [begin, insert, finish].forEach { sqlite3_finalize($0) }
        sqlite3_close_v2(database)
    }

    /// One transaction inserting `record` as the next row.
    func commit(_ record: [UInt8]) throws {
        let index = count
        try step(begin)
        sqlite3_bind_int64(insert, 1, Int64(index + 1))
        _ = record.withUnsafeBytes { bytes in
            sqlite3_bind_blob(insert, 2, bytes.baseAddress, Int32(bytes.count), csqlite_transient())
        }
        sqlite3_bind_int64(insert, 3, Int64(index) &* 0x9E37_79B9)
        sqlite3_bind_int64(insert, 4, 1_700_000_000_000 + Int64(index))
        try step(insert)
        try step(finish)
        count += 1
    }

    /// A passive checkpoint of the log, as the replica's idle steps run it.
    func checkpoint() {
        sqlite3_wal_checkpoint_v2(database, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }

    private func step(_ statement: OpaquePointer) throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else {
            throw BenchError.setup("floor: \(String(cString: sqlite3_errmsg(database)))")
        }
    }
}

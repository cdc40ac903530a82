import CSQLite
import ReplicaCore

/// The one owner of a `sqlite3*`: opened in the initializer, closed when released (or by `close()`).
final class SQLiteConnection {
    private var handle: OpaquePointer?
    let path: String
    /// Statements prepared once and kept for the connection's life (see `cached`).
    private var statements: [String: SQLiteStatement] = [:]

    /// `immutable` opens the file as one nobody writes (SQLite's `immutable=1`): no locks, no
    /// shared-memory file, so a store in a directory the user cannot write is still readable.
    init(path: String, readOnly: Bool, immutable: Bool = false, busyTimeoutMilliseconds: Int32) throws {
        self.path = path
        var connection: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX | (immutable ? SQLITE_OPEN_URI : 0)
        let name = immutable ? "file:" + Self.uriEscaped(path) + "?immutable=1" : path
        let code = sqlite3_open_v2(name, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(connection)
            throw SQLiteError(code: code, message: message, sql: nil)
        }
        handle = connection
        sqlite3_busy_timeout(connection, busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(connection, 1)
    }

    /// A path as the path of a `file:` URI: `%`, `?` and `#` (and bytes outside printable
    /// ASCII) percent-encoded.
    private static func uriEscaped(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            if byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "%"), byte != UInt8(ascii: "?"),
                byte != UInt8(ascii: "#")
            {
                result.append(Character(Unicode.Scalar(byte)))
            } else {
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return result
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs `body` with the open handle; throws when the connection is closed.
    func withHandle<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        guard let handle else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "the connection is closed", sql: nil)
        }
        return try body(handle)
    }

    /// Frees the pages SQLite's cache holds for this connection that no statement is using (all
    /// of them between transactions); later reads fetch them from the file (the system's cache).
    func releaseCachedPages() {
        guard let handle else { return }
        sqlite3_db_release_memory(handle)
    }

    /// The bytes SQLite's page cache holds for this connection.
    var cachedPageBytes: Int {
        guard let handle else { return 0 }
        var current: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
        return Int(current)
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        guard let handle else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "the connection is closed", sql: sql)
        }
        return try SQLiteStatement(connection: handle, sql: sql, path: path)
    }

    /// The statement for `sql`, prepared on first use and kept: the replica runs the same few
    /// statements on every commit, and preparing one costs more than running it.
    func cached(_ sql: String) throws -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        let statement = try prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// Runs one statement with bound values and returns its rows.
    @discardableResult
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        try prepare(sql).run(values)
    }

    /// `BEGIN IMMEDIATE` and `COMMIT`, held apart from `statements` so a commit does not hash
    /// their text to find them.
    private var beginImmediate: SQLiteStatement?
    private var commit: SQLiteStatement?

    /// Runs `body` inside `BEGIN IMMEDIATE ... COMMIT`; rolls back if it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try begin()
        return try continueTransaction(body)
    }

    /// `BEGIN IMMEDIATE`: a write transaction, for a caller that finishes it with
    /// `continueTransaction` (or `rollback`).
    func begin() throws {
        if beginImmediate == nil { beginImmediate = try cached("BEGIN IMMEDIATE") }
        try beginImmediate?.run()
    }

    /// Runs `body` inside the transaction `begin()` (or another `BEGIN`) started, then commits
    /// it; rolls it back if anything throws.
    func continueTransaction<T>(_ body: () throws -> T) throws -> T {
        let result: T
        do {
            result = try body()
        } catch {
            rollback()
            throw error
        }
        try commitTransaction()
        return result
    }

    /// `COMMIT` of the transaction `begin()` started; rolls it back if the commit fails.
    func commitTransaction() throws {
        do {
            if commit == nil { commit = try cached("COMMIT") }
            try commit?.run()
        } catch {
            rollback()
            throw error
        }
    }

    /// Rolls back the transaction under way, if any (a failed statement may have ended it).
    func rollback() {
        guard let handle, sqlite3_get_autocommit(handle) == 0 else { return }
        _ = try? cached("ROLLBACK").run()
    }

    /// Runs `body` inside one read transaction, so that its statements see one committed state
    /// while a writer may be committing; inside a transaction already, just runs it.
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        guard let handle, sqlite3_get_autocommit(handle) != 0 else { return try body() }
        try cached("BEGIN").run()
        return try continueTransaction(body)
    }
}

import CSQLite
import ReplicaCore

/// The one owner of a `sqlite3*`: opened in the initializer, closed when released (or by `close()`).
final class SQLiteConnection {
    private var handle: OpaquePointer?
    let path: String

    init(path: String, readOnly: Bool, busyTimeoutMilliseconds: Int32) throws {
        self.path = path
        var connection: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(connection)
            throw SQLiteError(code: code, message: message, sql: nil)
        }
        handle = connection
        sqlite3_busy_timeout(connection, busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(connection, 1)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        guard let handle else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "the connection is closed", sql: sql)
        }
        return try SQLiteStatement(connection: handle, sql: sql, path: path)
    }

    /// Runs one statement with bound values and returns its rows.
    @discardableResult
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        try prepare(sql).run(values)
    }

    /// Runs `body` inside `BEGIN IMMEDIATE ... COMMIT`; rolls back if it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            _ = try? run("ROLLBACK")
            throw error
        }
    }
}

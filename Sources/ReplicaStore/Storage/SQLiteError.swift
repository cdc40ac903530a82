import ReplicaCore

/// A failure reported by SQLite: its result code, its message, and the SQL that was running.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Int32
    public var message: String
    public var sql: String?
    /// The `errno` of the system call that failed under it (0 when none did).
    public var systemErrno: Int32

    public init(code: Int32, message: String, sql: String?, systemErrno: Int32 = 0) {
        self.code = code
        self.message = message
        self.sql = sql
        self.systemErrno = systemErrno
    }

    public var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " (while running: \($0))" } ?? "")
    }
}

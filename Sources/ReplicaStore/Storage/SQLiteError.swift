import ReplicaCore

/// A failure reported by SQLite: its result code, its message, and the SQL that was running.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Int32
    public var message: String
    public var sql: String?

    public init(code: Int32, message: String, sql: String?) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    public var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " (while running: \($0))" } ?? "")
    }
}

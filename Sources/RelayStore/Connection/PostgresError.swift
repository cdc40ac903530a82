/// A failure talking to PostgreSQL: what was being done, where (never with the URL's password),
/// and what the server or libpq said.
public struct PostgresError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The URL could not be read at all.
        case invalidURL
        /// The connection could not be made (unreachable host, wrong password, missing database).
        case connectionFailed
        /// The connection was not made within the time allowed.
        case timedOut
        /// An established connection broke (server restarted or stopped).
        case connectionLost
        /// The server refused a statement; `sqlState` is its five-character code.
        case statementFailed(sqlState: String)
        /// A row did not hold what the store wrote there.
        case damagedRow
    }

    public var kind: Kind
    /// What was being done: "connecting", "running migration 1", "reading events".
    public var operation: String
    /// Where: `PostgresTarget.description` (host, port, database, user; no password).
    public var target: String
    /// libpq's or the server's message, first line only.
    public var message: String

    public init(kind: Kind, operation: String, target: String, message: String) {
        self.kind = kind
        self.operation = operation
        self.target = target
        self.message = message.split(separator: "\n").first.map(String.init) ?? ""
    }

    /// What to do about a failed connection, from libpq's message (whose wording is stable
    /// across versions; the server's own part may be translated, then the general advice stands).
    public var hint: String {
        switch kind {
        case .invalidURL:
            return "write it as postgresql://USER:PASSWORD@HOST:PORT/DATABASE"
        case .connectionFailed where message.contains("password authentication failed"):
            return "check the user and password in the URL (or in ~/.pgpass)"
        case .connectionFailed where message.contains("does not exist"):
            return "create the database or role it names (createdb, createuser), or fix the URL"
        case .connectionFailed where message.contains("no password supplied"):
            return "add the password to the URL or to ~/.pgpass"
        case .connectionFailed, .timedOut, .connectionLost:
            return "check that PostgreSQL is running there and accepts connections from this machine"
        case .statementFailed, .damagedRow:
            return "see the PostgreSQL server log"
        }
    }

    public var description: String {
        "PostgreSQL at \(target): \(operation) failed: \(message) (\(hint))"
    }
}

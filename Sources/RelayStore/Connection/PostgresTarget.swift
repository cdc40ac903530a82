import CLibPQ

/// Where a connection URL points, read by libpq's own parser: host (or socket directory), port,
/// database and user. The password is never kept, so nothing built from a target can print it.
public struct PostgresTarget: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: String
    public var database: String
    public var user: String

    /// Parses `url` (a `postgresql://` URL or a `key=value` string).
    public init(url: String) throws(PostgresError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &errorMessage) else {
            let message = errorMessage.map { String(cString: $0) } ?? "out of memory"
            if let errorMessage { PQfreemem(errorMessage) }
            throw PostgresError(
                kind: .invalidURL, operation: "reading the URL", target: "an unreadable URL", message: message
            )
        }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        host = values["host"] ?? values["hostaddr"] ?? "localhost"
        port = values["port"] ?? "5432"
        user = values["user"] ?? "the current user"
        database = values["dbname"] ?? user
    }

    public var description: String {
        let place = host.hasPrefix("/") ? "socket directory \(host)" : "\(host):\(port)"
        return "\(place) (database \(database), user \(user))"
    }
}

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
            // libpq quotes the URL in its message, password and all: the quote goes.
            let message = Self.withoutQuotes(errorMessage.map { String(cString: $0) } ?? "out of memory")
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

    /// Replaces every double-quoted part of `message` with "the URL".
    static func withoutQuotes(_ message: String) -> String {
        var result = ""
        var quoted = false
        for character in message {
            if character == "\"" {
                if !quoted { result += "the URL" }
                quoted.toggle()
            } else if !quoted {
                result.append(character)
            }
        }
        return result
    }

    public var description: String {
        let place = host.hasPrefix("/") ? "socket directory \(host)" : "\(host):\(port)"
        return "\(place) (database \(database), user \(user))"
    }
}

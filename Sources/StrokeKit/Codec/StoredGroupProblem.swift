/// Why a value in the `strokes` map could not be turned back into a stroke group.
public enum StoredGroupProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The map key is not a stroke key (`2026-03-25T16:20:14.127Z~3fa2c1`).
    case malformedKey(String)
    /// The value is not a string.
    case notAString(key: String)
    /// The value does not decode.
    case undecodable(key: String, reason: String)
    /// The value decodes to a group under another key.
    case keyMismatch(key: String, encodedKey: String)

    public var description: String {
        switch self {
        case .malformedKey(let key):
            return "ignored stroke entry '\(key.prefix(40))': not a stroke key"
        case .notAString(let key):
            return "ignored stroke \(key): its value is not an encoded stroke group"
        case .undecodable(let key, let reason):
            return "ignored stroke \(key): \(reason)"
        case .keyMismatch(let key, let encodedKey):
            return "ignored stroke \(key): its value belongs to \(encodedKey)"
        }
    }
}

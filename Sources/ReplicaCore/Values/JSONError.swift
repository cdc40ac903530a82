import JSONText

/// Why a text is not a JSON value that `DocumentValue(json:)` accepts, and where.
///
/// Positions are 1-based lines and columns counted in characters, as an editor shows them.
/// `description` is the one-line message a user reads, for example
/// `JSON line 1, column 9: expected ',' or '}', found 'x'`.
public enum JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A character the grammar does not allow here (or the end of the text).
    case unexpected(expected: String, found: String, position: JSONPosition)
    /// A backslash escape other than `\" \\ \/ \b \f \n \r \t \uXXXX`.
    case invalidEscape(String, position: JSONPosition)
    /// A `\uD800`–`\uDFFF` escape that is not half of a well-formed surrogate pair.
    case unpairedSurrogate(String, position: JSONPosition)
    /// A raw control character (below U+0020) inside a string; JSON requires it escaped.
    case controlCharacterInString(UInt8, position: JSONPosition)
    /// A number too large for a Double (`1e400`).
    case numberOutOfRange(String, position: JSONPosition)
    /// An object names the same key twice; which value was meant is unknowable.
    case duplicateKey(String, position: JSONPosition)
    /// Arrays and objects nest deeper than `limit`.
    case tooDeep(limit: Int, position: JSONPosition)
    /// The text is longer than `limit` bytes of UTF-8.
    case tooLarge(size: Int, limit: Int)

    /// Where the problem starts; nil for `tooLarge`, which is about the whole text.
    public var position: JSONPosition? {
        switch self {
        case .unexpected(_, _, let position), .invalidEscape(_, let position),
            .unpairedSurrogate(_, let position), .controlCharacterInString(_, let position),
            .numberOutOfRange(_, let position), .duplicateKey(_, let position),
            .tooDeep(_, let position):
            return position
        case .tooLarge:
            return nil
        }
    }

    public var description: String {
        let message: String
        switch self {
        case .unexpected(let expected, let found, _):
            message = "expected \(expected), found \(found)"
        case .invalidEscape(let escape, _):
            message = "invalid escape '\(escape)' (allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"
        case .unpairedSurrogate(let escape, _):
            message = "'\(escape)' is half of a UTF-16 surrogate pair without its other half"
        case .controlCharacterInString(let byte, _):
            let hex = String(byte, radix: 16, uppercase: true)
            message =
                "control character U+\(String(repeating: "0", count: 4 - hex.count) + hex) in a string; "
                + "write it as an escape such as \\n or \\u0001"
        case .numberOutOfRange(let text, _):
            message = "number \(text) is too large to hold"
        case .duplicateKey(let key, _):
            message = "key \"\(key)\" appears twice in one object"
        case .tooDeep(let limit, _):
            message = "arrays and objects nest deeper than \(limit) levels"
        case .tooLarge(let size, let limit):
            return "JSON text is \(size) bytes; the limit is \(limit)"
        }
        return "JSON \(position.map { "\($0)" } ?? ""): \(message)"
    }
}

/// A line and column in a JSON text: the same position type as the DQL parser's.
public typealias JSONPosition = TextPosition

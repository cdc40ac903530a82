/// Why a statement text is not valid DQL, and where.
///
/// Every case carries the position of the offending token or character, so a user can find it in
/// a statement that spans lines. `description` is the one-line message a user reads, for example
/// `line 2, column 5: expected FROM, found 'FORM'`.
public enum DQLSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A token the grammar does not allow here; `expected` and `found` are written for people.
    case unexpectedToken(expected: String, found: String, position: DQLPosition)
    /// A character that starts no token, such as `#` or a lone `-`.
    case unexpectedCharacter(Character, position: DQLPosition)
    /// A `'string` with no closing quote; the position is the opening quote.
    case unterminatedString(position: DQLPosition)
    /// A `` `name `` with no closing backquote; the position is the opening backquote.
    case unterminatedQuotedIdentifier(position: DQLPosition)
    /// ``` `` ``` names nothing.
    case emptyQuotedIdentifier(position: DQLPosition)
    /// A `:` that is not followed by a parameter name.
    case missingParameterName(position: DQLPosition)
    /// Digits that do not form a number a document can hold (`1e`, `1e999`).
    case malformedNumber(text: String, position: DQLPosition)

    /// Where the problem starts (1-based line and column, columns in characters).
    public var position: DQLPosition {
        switch self {
        case .unexpectedToken(_, _, let position), .unexpectedCharacter(_, let position),
            .unterminatedString(let position), .unterminatedQuotedIdentifier(let position),
            .emptyQuotedIdentifier(let position), .missingParameterName(let position),
            .malformedNumber(_, let position):
            return position
        }
    }

    /// What the parser would have accepted at `position`.
    public var expected: String {
        switch self {
        case .unexpectedToken(let expected, _, _): return expected
        case .unexpectedCharacter: return "a keyword, name, parameter, literal or punctuation"
        case .unterminatedString: return "a closing '"
        case .unterminatedQuotedIdentifier: return "a closing `"
        case .emptyQuotedIdentifier: return "a name between the backquotes"
        case .missingParameterName: return "a parameter name after ':'"
        case .malformedNumber: return "a finite number such as 42, -1.5 or 2e10"
        }
    }

    /// What the parser found at `position`.
    public var found: String {
        switch self {
        case .unexpectedToken(_, let found, _): return found
        case .unexpectedCharacter(let character, _): return DQLToken.quote(String(character))
        case .unterminatedString, .unterminatedQuotedIdentifier: return "end of input"
        case .emptyQuotedIdentifier: return "``"
        case .missingParameterName: return "':' alone"
        case .malformedNumber(let text, _): return DQLToken.quote(text)
        }
    }

    public var description: String {
        "\(position): expected \(expected), found \(found)"
    }
}

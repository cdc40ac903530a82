import JSONText

/// Why a `drawtogether-drawing` JSON document was refused, with where.
///
/// Syntax cases come from the JSON reader; the others from checking the document against the
/// format. `path` names the value in the document, e.g. `groups[2].pieces[0].width`.
public enum DrawingJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    case inputTooLarge(bytes: Int, limit: Int)
    case nestedTooDeeply(limit: Int, at: DrawingJSON.Position)
    case unexpectedEnd(expected: String, at: DrawingJSON.Position)
    case unexpectedCharacter(found: String, expected: String, at: DrawingJSON.Position)
    case invalidNumber(String, at: DrawingJSON.Position)
    case invalidString(reason: String, at: DrawingJSON.Position)
    case duplicateKey(String, at: DrawingJSON.Position)
    case trailingContent(at: DrawingJSON.Position)
    case wrongType(path: String, expected: String, found: String, at: DrawingJSON.Position)
    case missingField(path: String, field: String, at: DrawingJSON.Position)
    case unknownField(path: String, field: String, at: DrawingJSON.Position)
    case invalidValue(path: String, reason: String, at: DrawingJSON.Position)
    case unsupportedFormat(String, at: DrawingJSON.Position)
    case unsupportedVersion(String, at: DrawingJSON.Position)
    case duplicateGroupKey(String, at: DrawingJSON.Position)

    /// Where in the input the problem is; nil for a problem with the input as a whole.
    public var position: DrawingJSON.Position? {
        switch self {
        case .inputTooLarge: nil
        case .nestedTooDeeply(_, let at), .unexpectedEnd(_, let at), .unexpectedCharacter(_, _, let at),
            .invalidNumber(_, let at), .invalidString(_, let at), .duplicateKey(_, let at),
            .trailingContent(let at), .wrongType(_, _, _, let at), .missingField(_, _, let at),
            .unknownField(_, _, let at), .invalidValue(_, _, let at), .unsupportedFormat(_, let at),
            .unsupportedVersion(_, let at), .duplicateGroupKey(_, let at):
            at
        }
    }

    /// What went wrong, where, and what would be accepted instead.
    public var description: String {
        let place = position.map { "\($0): " } ?? ""
        return place + problem
    }

    private var problem: String {
        switch self {
        case .inputTooLarge(let bytes, let limit):
            "the drawing is \(bytes) bytes, more than the \(limit) bytes an import accepts"
        case .nestedTooDeeply(let limit, _):
            "arrays and objects are nested more than \(limit) deep; a drawing never needs that"
        case .unexpectedEnd(let expected, _):
            "the text ends where \(expected) was expected; the file may be cut short"
        case .unexpectedCharacter(let found, let expected, _):
            "expected \(expected) but found \(found)"
        case .invalidNumber(let text, _):
            "\(text) is not a JSON number"
        case .invalidString(let reason, _):
            "bad string: \(reason)"
        case .duplicateKey(let key, _):
            "the field \(JSONString.quoted(key)) appears twice in one object"
        case .trailingContent:
            "unexpected text after the end of the document"
        case .wrongType(let path, let expected, let found, _):
            "\(path) should be \(expected), not \(found)"
        case .missingField(let path, let field, _):
            "\(path) lacks the field \(JSONString.quoted(field))"
        case .unknownField(let path, let field, _):
            "\(path) has a field \(JSONString.quoted(field)) that this format does not know"
        case .invalidValue(let path, let reason, _):
            "\(path) \(reason)"
        case .unsupportedFormat(let found, _):
            "the format is \(JSONString.quoted(found)), not \(JSONString.quoted(DrawingJSON.formatName)): "
                + "this is not a drawtogether drawing"
        case .unsupportedVersion(let found, _):
            "version \(found) is not supported (this drawtogether reads version \(DrawingJSON.version)); "
                + "export the drawing again with a matching drawtogether"
        case .duplicateGroupKey(let key, _):
            "the key \(JSONString.quoted(key)) belongs to two groups; a drawing holds each key once"
        }
    }
}

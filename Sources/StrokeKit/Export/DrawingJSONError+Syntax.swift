import JSONText

extension DrawingJSONError {
    /// The JSON reader's refusal of `text`, in the words and with the positions of a drawing import.
    init(_ error: JSONSyntaxError, in text: String) {
        func at(_ offset: Int) -> DrawingJSON.Position { DrawingJSON.Position(utf8Offset: offset, in: text) }
        switch error {
        case .inputTooLarge(let bytes, let limit):
            self = .inputTooLarge(bytes: bytes, limit: limit)
        case .nestedTooDeeply(let limit, let offset):
            self = .nestedTooDeeply(limit: limit, at: at(offset))
        case .unexpected(.end, _, let offset):
            self = .trailingContent(at: at(offset))
        case .unexpected(let expected, nil, let offset):
            self = .unexpectedEnd(expected: Self.words(for: expected), at: at(offset))
        case .unexpected(let expected, let found?, let offset):
            self = .unexpectedCharacter(
                found: Self.words(for: found), expected: Self.words(for: expected), at: at(offset))
        case .invalidNumber(let literal, let offset, _, _, _):
            self = .invalidNumber(literal, at: at(offset))
        case .controlCharacterInString(_, let offset):
            self = .invalidString(reason: "a control character must be written as an escape", at: at(offset))
        case .invalidEscape(let escape, let offset):
            self = .invalidString(reason: "'\(escape)' is not an escape", at: at(offset))
        case .invalidHexEscape(_, _, truncated: true):
            self = .unexpectedEnd(expected: "four hex digits", at: at(text.utf8.count))
        case .invalidHexEscape(_, let offset, truncated: false):
            self = .invalidString(reason: #"\u needs four hex digits"#, at: at(offset))
        case .unpairedSurrogate(_, let offset, let isHigh):
            let reason = isHigh ? "a high surrogate without a low one" : "a low surrogate without a high one"
            self = .invalidString(reason: reason, at: at(offset))
        case .duplicateKey(let key, let offset):
            self = .duplicateKey(key, at: at(offset))
        }
    }

    private static func words(for expected: JSONExpectation) -> String {
        switch expected {
        case .value: "a value"
        case .key: "a field name in double quotes"
        case .colon: "':'"
        case .commaOrObjectEnd: "',' or '}'"
        case .commaOrArrayEnd: "',' or ']'"
        case .end: "the end of the document"
        case .literal(let word): "'\(word)'"
        case .digit: "a digit"
        case .closingQuote: "'\"' to close the string"
        case .escape: "an escape"
        }
    }

    private static func words(for found: Unicode.Scalar) -> String {
        if found.value >= 0x20 && found.value < 0x7F { return "'\(found)'" }
        if found.value < 0x80 { return "a control character (byte \(found.value))" }
        return "'\(found)'"
    }
}

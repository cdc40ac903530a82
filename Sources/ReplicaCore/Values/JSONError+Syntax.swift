import JSONText

extension JSONError {
    /// The JSON reader's refusal of `text`, in the words and with the positions `query --args`
    /// has always reported. A malformed number is reported where its grammar stopped (`1.` at the
    /// end, `01` at the `1`), as a reader that takes the longest valid number would.
    init(_ error: JSONSyntaxError, in text: String) {
        func at(_ offset: Int) -> JSONPosition { JSONPosition(utf8Offset: offset, in: text) }
        switch error {
        case .inputTooLarge(let bytes, let limit):
            self = .tooLarge(size: bytes, limit: limit)
        case .nestedTooDeeply(let limit, let offset):
            self = .tooDeep(limit: limit, position: at(offset))
        case .unexpected(let expected, let found, let offset):
            self = .unexpected(
                expected: Self.words(for: expected), found: Self.words(for: found), position: at(offset))
        case .invalidNumber(_, _, let expected, let found, let stopOffset):
            self = .unexpected(
                expected: Self.words(for: expected), found: Self.words(for: found), position: at(stopOffset))
        case .controlCharacterInString(let byte, let offset):
            self = .controlCharacterInString(byte, position: at(offset))
        case .invalidEscape(let escape, let offset), .invalidHexEscape(let escape, let offset, _):
            self = .invalidEscape(escape, position: at(offset))
        case .unpairedSurrogate(let escape, let offset, _):
            self = .unpairedSurrogate(escape, position: at(offset))
        case .duplicateKey(let key, let offset):
            self = .duplicateKey(key, position: at(offset))
        }
    }

    private static func words(for expected: JSONExpectation) -> String {
        switch expected {
        case .value: "a JSON value"
        case .key: "a key in double quotes"
        case .colon: "':'"
        case .commaOrObjectEnd: "',' or '}'"
        case .commaOrArrayEnd: "',' or ']'"
        case .end: "end of JSON text"
        case .literal(let word): "'\(word)'"
        case .digit: "a digit"
        case .closingQuote: "'\"' to close the string"
        case .escape: "an escape after '\\'"
        }
    }

    private static func words(for found: Unicode.Scalar?) -> String {
        guard let found else { return "end of JSON text" }
        return found.value < 0x20 ? "control character \(found.escaped(asASCII: true))" : "'\(found)'"
    }
}

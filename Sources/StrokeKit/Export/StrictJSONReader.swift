/// A small, strict JSON reader (RFC 8259) for imported drawings: no comments, no trailing
/// commas, no duplicate keys, no unescaped control characters, no lone surrogates.
///
/// Bounded: the input size and the nesting depth are checked against `DrawingJSON.Limits`
/// before they can cost memory or stack. StrokeKit stays free of Foundation, so this is written
/// by hand; it only builds `JSONNode`s, and the shape of a drawing is checked elsewhere.
struct StrictJSONReader {
    private let bytes: [UInt8]
    private let limits: DrawingJSON.Limits
    private var index = 0

    private init(bytes: [UInt8], limits: DrawingJSON.Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// The one value of a document, with nothing but whitespace around it.
    static func parse(_ bytes: [UInt8], limits: DrawingJSON.Limits) throws(DrawingJSONError) -> JSONNode {
        guard bytes.count <= limits.maximumBytes else {
            throw .inputTooLarge(bytes: bytes.count, limit: limits.maximumBytes)
        }
        var reader = StrictJSONReader(bytes: bytes, limits: limits)
        reader.skipWhitespace()
        let root = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw .trailingContent(at: reader.position(reader.index)) }
        return root
    }

    private func position(_ offset: Int) -> DrawingJSON.Position {
        TextPositions(bytes: bytes).position(offset)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    /// The error for the byte at `index` not being what was expected (or for the end).
    private func unexpected(_ expected: String) -> DrawingJSONError {
        guard let byte = current else { return .unexpectedEnd(expected: expected, at: position(index)) }
        let found: String
        if byte >= 0x20 && byte < 0x7F {
            found = "'\(Character(Unicode.Scalar(byte)))'"
        } else if byte < 0x80 {
            found = "a control character (byte \(byte))"
        } else {
            let scalar = String(decoding: bytes[index..<min(index + 4, bytes.count)], as: UTF8.self)
                .unicodeScalars.first.map { "'\($0)'" }
            found = scalar ?? "a non-ASCII character"
        }
        return .unexpectedCharacter(found: found, expected: expected, at: position(index))
    }

    private mutating func expect(_ byte: UInt8, _ expected: String) throws(DrawingJSONError) {
        guard current == byte else { throw unexpected(expected) }
        index += 1
    }

    private mutating func value(depth: Int) throws(DrawingJSONError) -> JSONNode {
        let start = index
        guard let byte = current else { throw unexpected("a value") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try string()), offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try number()), offset: start)
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: throw unexpected("a value")
        }
        let word = bytes[start]
        let value: JSONNode.Value = word == UInt8(ascii: "n") ? .null : .bool(word == UInt8(ascii: "t"))
        return JSONNode(value: value, offset: start)
    }

    private mutating func literal(_ word: String) throws(DrawingJSONError) {
        for byte in word.utf8 {
            guard current == byte else { throw unexpected("'\(word)'") }
            index += 1
        }
    }

    private mutating func object(depth: Int) throws(DrawingJSONError) -> JSONNode {
        let start = index
        guard depth <= limits.maximumDepth else {
            throw .nestedTooDeeply(limit: limits.maximumDepth, at: position(start))
        }
        index += 1
        var members: [JSONNode.Member] = []
        var seen: Set<String> = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return JSONNode(value: .object([]), offset: start)
        }
        while true {
            skipWhitespace()
            let keyOffset = index
            guard current == UInt8(ascii: "\"") else { throw unexpected("a field name in double quotes") }
            let key = try string()
            guard seen.insert(key).inserted else { throw .duplicateKey(key, at: position(keyOffset)) }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':'")
            skipWhitespace()
            members.append(JSONNode.Member(key: key, keyOffset: keyOffset, value: try value(depth: depth)))
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                index += 1
                return JSONNode(value: .object(members), offset: start)
            }
            try expect(UInt8(ascii: ","), "',' or '}'")
        }
    }

    private mutating func array(depth: Int) throws(DrawingJSONError) -> JSONNode {
        let start = index
        guard depth <= limits.maximumDepth else {
            throw .nestedTooDeeply(limit: limits.maximumDepth, at: position(start))
        }
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return JSONNode(value: .array([]), offset: start)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth))
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                index += 1
                return JSONNode(value: .array(elements), offset: start)
            }
            try expect(UInt8(ascii: ","), "',' or ']'")
        }
    }

    /// A string literal starting at the opening quote.
    private mutating func string() throws(DrawingJSONError) -> String {
        index += 1
        var buffer: [UInt8] = []
        while true {
            guard let byte = current else {
                throw .unexpectedEnd(expected: "'\"' to close the string", at: position(index))
            }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                let scalar = try escape()
                buffer.append(contentsOf: String(Character(scalar)).utf8)
            case 0..<0x20:
                throw .invalidString(
                    reason: "a control character must be written as an escape", at: position(index))
            default:
                // The input came from a Swift String, so it is valid UTF-8 and copied as is.
                buffer.append(byte)
                index += 1
            }
        }
    }

    /// One escape sequence starting at the backslash; a UTF-16 surrogate pair makes one scalar.
    private mutating func escape() throws(DrawingJSONError) -> Unicode.Scalar {
        let start = index
        index += 1
        guard let letter = current else { throw .unexpectedEnd(expected: "an escape", at: position(index)) }
        index += 1
        switch letter {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hexUnit(escapeStart: start)
            if (0xDC00...0xDFFF).contains(unit) {
                throw .invalidString(reason: "a low surrogate without a high one", at: position(start))
            }
            guard (0xD800...0xDBFF).contains(unit) else {
                return Unicode.Scalar(unit) ?? "\u{FFFD}"
            }
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count,
                bytes[index + 1] == UInt8(ascii: "u")
            else { throw .invalidString(reason: "a high surrogate without a low one", at: position(start)) }
            let lowStart = index
            index += 2
            let low = try hexUnit(escapeStart: lowStart)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw .invalidString(reason: "a high surrogate without a low one", at: position(start))
            }
            let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            return Unicode.Scalar(value) ?? "\u{FFFD}"
        default:
            throw .invalidString(
                reason: "'\\\(Character(Unicode.Scalar(letter)))' is not an escape", at: position(start))
        }
    }

    /// The four hex digits after `\u`.
    private mutating func hexUnit(escapeStart: Int) throws(DrawingJSONError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = current else {
                throw .unexpectedEnd(expected: "four hex digits", at: position(index))
            }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .invalidString(reason: "\\u needs four hex digits", at: position(escapeStart))
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// A number literal: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() throws(DrawingJSONError) -> String {
        let start = index
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        func fail(_ reader: StrictJSONReader) -> DrawingJSONError {
            // Report the whole run of number-like characters, so the message shows what was written.
            var end = reader.index
            while end < reader.bytes.count, "+-.eE0123456789".utf8.contains(reader.bytes[end]) { end += 1 }
            return .invalidNumber(
                String(decoding: reader.bytes[start..<end], as: UTF8.self), at: reader.position(start))
        }
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
            if isDigit(current) { throw fail(self) }
        } else {
            guard isDigit(current) else { throw fail(self) }
            while isDigit(current) { index += 1 }
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard isDigit(current) else { throw fail(self) }
            while isDigit(current) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard isDigit(current) else { throw fail(self) }
            while isDigit(current) { index += 1 }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}

/// A strict JSON (RFC 8259) reader over UTF-8 bytes, producing `DocumentValue`s.
///
/// Strict means: no comments, no trailing commas, no leading zeros or `+`, no raw control
/// characters in strings, no lone surrogates, no duplicate keys, nothing after the value.
/// Recursion is bounded by `maximumDepth`, so hostile input cannot exhaust the stack.
/// Positions are computed only when an error is thrown, from the byte offset.
struct JSONReader {
    private let bytes: [UInt8]
    private let maximumDepth: Int
    private var index = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// The one value the text holds, with nothing but whitespace around it.
    mutating func document() throws(JSONError) -> DocumentValue {
        skipWhitespace()
        let value = try value(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw unexpected("end of JSON text") }
        return value
    }

    private mutating func value(depth: Int) throws(JSONError) -> DocumentValue {
        guard let byte = peek() else { throw unexpected("a JSON value") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: throw unexpected("a JSON value")
        }
    }

    private mutating func object(depth: Int) throws(JSONError) -> DocumentValue {
        guard depth <= maximumDepth else {
            throw .tooDeep(limit: maximumDepth, position: position(of: index))
        }
        index += 1
        var entries: [String: DocumentValue] = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return .object(entries)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw unexpected("a key in double quotes") }
            let keyStart = index
            let key = try string()
            skipWhitespace()
            try expect(":", "':'")
            skipWhitespace()
            let value = try value(depth: depth)
            guard entries.updateValue(value, forKey: key) == nil else {
                throw .duplicateKey(key, position: position(of: keyStart))
            }
            skipWhitespace()
            if peek() == UInt8(ascii: "}") {
                index += 1
                return .object(entries)
            }
            try expect(",", "',' or '}'")
        }
    }

    private mutating func array(depth: Int) throws(JSONError) -> DocumentValue {
        guard depth <= maximumDepth else {
            throw .tooDeep(limit: maximumDepth, position: position(of: index))
        }
        index += 1
        var elements: [DocumentValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth))
            skipWhitespace()
            if peek() == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            try expect(",", "',' or ']'")
        }
    }

    private mutating func literal(_ word: String, _ value: DocumentValue) throws(JSONError) -> DocumentValue {
        for expected in word.utf8 {
            guard peek() == expected else { throw unexpected("'\(word)'") }
            index += 1
        }
        return value
    }

    /// `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, read as the nearest Double.
    private mutating func number() throws(JSONError) -> Double {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else {
            try digits()
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            try digits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw .numberOutOfRange(text, position: position(of: start))
        }
        return value
    }

    private mutating func digits() throws(JSONError) {
        guard let byte = peek(), Self.isDigit(byte) else { throw unexpected("a digit") }
        while let byte = peek(), Self.isDigit(byte) { index += 1 }
    }

    // MARK: Strings

    private mutating func string() throws(JSONError) -> String {
        index += 1
        var content: [UInt8] = []
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: content, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &content)
            case 0..<0x20:
                throw .controlCharacterInString(byte, position: position(of: index))
            default:
                content.append(byte)
                index += 1
            }
        }
        throw unexpected("'\"' to close the string")
    }

    private mutating func escape(into content: inout [UInt8]) throws(JSONError) {
        let start = index
        index += 1
        guard let letter = peek() else { throw unexpected("an escape after '\\'") }
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): content.append(letter)
        case UInt8(ascii: "b"): content.append(0x08)
        case UInt8(ascii: "f"): content.append(0x0C)
        case UInt8(ascii: "n"): content.append(0x0A)
        case UInt8(ascii: "r"): content.append(0x0D)
        case UInt8(ascii: "t"): content.append(0x09)
        case UInt8(ascii: "u"): try unicodeEscape(start: start, into: &content)
        default: throw .invalidEscape(text(from: start, count: 2), position: position(of: start))
        }
    }

    /// `\uXXXX`, or two of them that make a surrogate pair.
    private mutating func unicodeEscape(start: Int, into content: inout [UInt8]) throws(JSONError) {
        let unit = try hexUnit(escapeStart: start)
        var scalarValue = UInt32(unit)
        if (0xD800...0xDBFF).contains(unit) {
            let lowStart = index
            guard peek() == UInt8(ascii: "\\"), peek(at: 1) == UInt8(ascii: "u") else {
                throw .unpairedSurrogate(text(from: start, count: 6), position: position(of: start))
            }
            index += 2
            let low = try hexUnit(escapeStart: lowStart)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw .unpairedSurrogate(text(from: start, count: 6), position: position(of: start))
            }
            scalarValue = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(unit) {
            throw .unpairedSurrogate(text(from: start, count: 6), position: position(of: start))
        }
        guard let scalar = Unicode.Scalar(scalarValue) else {
            throw .unpairedSurrogate(text(from: start, count: 6), position: position(of: start))
        }
        content.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    /// The four hex digits after `\u`.
    private mutating func hexUnit(escapeStart: Int) throws(JSONError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = Self.hexValue(byte) else {
                throw .invalidEscape(text(from: escapeStart, count: 6), position: position(of: escapeStart))
            }
            unit = unit << 4 | UInt16(digit)
            index += 1
        }
        return unit
    }

    // MARK: Bytes and positions

    private func peek(at offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func expect(_ symbol: Unicode.Scalar, _ expected: String) throws(JSONError) {
        guard peek() == UInt8(ascii: symbol) else { throw unexpected(expected) }
        index += 1
    }

    private func unexpected(_ expected: String) -> JSONError {
        .unexpected(expected: expected, found: foundDescription(), position: position(of: index))
    }

    private func foundDescription() -> String {
        guard index < bytes.count else { return "end of JSON text" }
        let scalar =
            String(decoding: bytes[index..<min(index + 4, bytes.count)], as: UTF8.self)
            .unicodeScalars.first ?? "?"
        return scalar.value < 0x20 ? "control character \(scalar.escaped(asASCII: true))" : "'\(scalar)'"
    }

    private func text(from start: Int, count: Int) -> String {
        String(decoding: bytes[start..<min(start + count, bytes.count)], as: UTF8.self)
    }

    /// Line and column of a byte offset; lines end at `\n`, columns count characters.
    private func position(of offset: Int) -> JSONPosition {
        var line = 1
        var lineStart = 0
        for (position, byte) in bytes[..<offset].enumerated() where byte == 0x0A {
            line += 1
            lineStart = position + 1
        }
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        return JSONPosition(line: line, column: column)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

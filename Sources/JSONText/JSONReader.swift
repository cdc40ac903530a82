/// The package's one JSON reader: strict RFC 8259 over UTF-8, building `JSONNode`s that keep
/// their offsets.
///
/// Strict means no comments, no trailing commas, no leading zeros or `+`, no raw control
/// characters in strings, no lone surrogates, no duplicate keys and nothing after the value.
/// Bounded: the size and the nesting depth are checked against `Limits` before they can cost
/// memory or stack. Numbers are kept as written; what a caller makes of them (an exact integer,
/// a `Double`) and of the document's shape is the caller's business.
public struct JSONReader {
    private let bytes: [UInt8]
    private let limits: Limits
    private var index = 0

    private init(bytes: [UInt8], limits: Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// The one value of `text`, with nothing but whitespace around it.
    public static func parse(_ text: String, limits: Limits) throws(JSONSyntaxError) -> JSONNode {
        let size = text.utf8.count
        guard size <= limits.maximumBytes else {
            throw .inputTooLarge(bytes: size, limit: limits.maximumBytes)
        }
        var reader = JSONReader(bytes: Array(text.utf8), limits: limits)
        reader.skipWhitespace()
        let root = try reader.value(depth: 0, followedBy: .end)
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else { throw reader.unexpected(.end) }
        return root
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The scalar that starts at `offset`, or nil at the end.
    private func scalar(at offset: Int) -> Unicode.Scalar? {
        guard offset < bytes.count else { return nil }
        return String(decoding: bytes[offset..<min(offset + 4, bytes.count)], as: UTF8.self)
            .unicodeScalars.first
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private func unexpected(_ expected: JSONExpectation) -> JSONSyntaxError {
        .unexpected(expected: expected, found: scalar(at: index), offset: index)
    }

    private mutating func expect(_ byte: UInt8, _ expected: JSONExpectation) throws(JSONSyntaxError) {
        guard current == byte else { throw unexpected(expected) }
        index += 1
    }

    /// One value; `follow` is what may come after it, which a number with a leading zero reports.
    private mutating func value(depth: Int, followedBy follow: JSONExpectation) throws(JSONSyntaxError)
        -> JSONNode
    {
        let start = index
        guard let byte = current else { throw unexpected(.value) }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try string()), offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try number(followedBy: follow)), offset: start)
        case UInt8(ascii: "t"): return JSONNode(value: try literal("true", .bool(true)), offset: start)
        case UInt8(ascii: "f"): return JSONNode(value: try literal("false", .bool(false)), offset: start)
        case UInt8(ascii: "n"): return JSONNode(value: try literal("null", .null), offset: start)
        default: throw unexpected(.value)
        }
    }

    /// `word` spelled out in full, which stands for `value`.
    private mutating func literal(_ word: String, _ value: JSONNode.Value) throws(JSONSyntaxError)
        -> JSONNode.Value
    {
        for byte in word.utf8 {
            guard current == byte else { throw unexpected(.literal(word)) }
            index += 1
        }
        return value
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        let start = index
        guard depth <= limits.maximumDepth else {
            throw .nestedTooDeeply(limit: limits.maximumDepth, offset: start)
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
            guard current == UInt8(ascii: "\"") else { throw unexpected(.key) }
            let key = try string()
            guard seen.insert(key).inserted else { throw .duplicateKey(key, offset: keyOffset) }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), .colon)
            skipWhitespace()
            let value = try value(depth: depth, followedBy: .commaOrObjectEnd)
            members.append(JSONNode.Member(key: key, keyOffset: keyOffset, value: value))
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                index += 1
                return JSONNode(value: .object(members), offset: start)
            }
            try expect(UInt8(ascii: ","), .commaOrObjectEnd)
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        let start = index
        guard depth <= limits.maximumDepth else {
            throw .nestedTooDeeply(limit: limits.maximumDepth, offset: start)
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
            elements.append(try value(depth: depth, followedBy: .commaOrArrayEnd))
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                index += 1
                return JSONNode(value: .array(elements), offset: start)
            }
            try expect(UInt8(ascii: ","), .commaOrArrayEnd)
        }
    }

    /// A string literal starting at the opening quote.
    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        var buffer: [UInt8] = []
        while true {
            guard let byte = current else { throw unexpected(.closingQuote) }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                let scalar = try escape()
                buffer.append(contentsOf: String(Character(scalar)).utf8)
            case 0..<0x20:
                throw .controlCharacterInString(byte, offset: index)
            default:
                // The input came from a Swift String, so it is valid UTF-8 and copied as is.
                buffer.append(byte)
                index += 1
            }
        }
    }

    /// Up to `count` bytes of the text from `start`, as written (for naming a bad escape).
    private func text(from start: Int, count: Int) -> String {
        String(decoding: bytes[start..<min(start + count, bytes.count)], as: UTF8.self)
    }

    /// One escape sequence starting at the backslash; a UTF-16 surrogate pair makes one scalar.
    private mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let start = index
        index += 1
        guard let letter = current else { throw unexpected(.escape) }
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
                throw .unpairedSurrogate(text(from: start, count: 6), offset: start, isHigh: false)
            }
            guard (0xD800...0xDBFF).contains(unit) else {
                return Unicode.Scalar(unit) ?? "\u{FFFD}"
            }
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count,
                bytes[index + 1] == UInt8(ascii: "u")
            else { throw .unpairedSurrogate(text(from: start, count: 6), offset: start, isHigh: true) }
            let lowStart = index
            index += 2
            let low = try hexUnit(escapeStart: lowStart)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw .unpairedSurrogate(text(from: start, count: 6), offset: start, isHigh: true)
            }
            let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            return Unicode.Scalar(value) ?? "\u{FFFD}"
        default:
            let written = scalar(at: start + 1).map { "\\\($0)" } ?? "\\"
            throw .invalidEscape(written, offset: start)
        }
    }

    /// The four hex digits after `\u`.
    private mutating func hexUnit(escapeStart: Int) throws(JSONSyntaxError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            let digit: UInt8
            switch current {
            case .some(let byte) where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte):
                digit = byte - UInt8(ascii: "0")
            case .some(let byte) where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte):
                digit = byte - UInt8(ascii: "a") + 10
            case .some(let byte) where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte):
                digit = byte - UInt8(ascii: "A") + 10
            default:
                throw .invalidHexEscape(
                    text(from: escapeStart, count: 6), offset: escapeStart, truncated: current == nil)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// A number literal: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number(followedBy follow: JSONExpectation) throws(JSONSyntaxError) -> String {
        let start = index
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        func fail(_ reader: JSONReader, expecting expected: JSONExpectation) -> JSONSyntaxError {
            // Name the whole run of number-like characters, so a message can show what was written.
            var end = reader.index
            while end < reader.bytes.count, "+-.eE0123456789".utf8.contains(reader.bytes[end]) { end += 1 }
            return .invalidNumber(
                literal: String(decoding: reader.bytes[start..<end], as: UTF8.self), offset: start,
                stoppedExpecting: expected, found: reader.scalar(at: reader.index), stopOffset: reader.index)
        }
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
            if isDigit(current) { throw fail(self, expecting: follow) }
        } else {
            guard isDigit(current) else { throw fail(self, expecting: .digit) }
            while isDigit(current) { index += 1 }
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard isDigit(current) else { throw fail(self, expecting: .digit) }
            while isDigit(current) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard isDigit(current) else { throw fail(self, expecting: .digit) }
            while isDigit(current) { index += 1 }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}

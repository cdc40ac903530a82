import ByteCoding
import JSONText

/// JSON text in and out, for `drawtogether query --args JSON` and for printing query results.
extension DocumentValue {
    /// How deep arrays and objects may nest in `init(json:)` unless the caller says otherwise.
    public static let defaultJSONDepthLimit = 64
    /// How many bytes of UTF-8 `init(json:)` reads unless the caller says otherwise (16 MiB).
    public static let defaultJSONSizeLimit = 16 << 20

    /// Parses one JSON value (RFC 8259, strictly), numbers as `Double`.
    ///
    /// Rejects what a lenient parser would guess at: comments, trailing commas, trailing text,
    /// lone surrogates, raw control characters in strings and duplicate keys. Errors carry the
    /// line and column. `maximumDepth` bounds recursion (keep it in the hundreds at most).
    public init(
        json: String,
        maximumDepth: Int = DocumentValue.defaultJSONDepthLimit,
        maximumSize: Int = DocumentValue.defaultJSONSizeLimit
    ) throws(JSONError) {
        let root: JSONNode
        do {
            root = try JSONReader.parse(
                json, limits: JSONReader.Limits(maximumBytes: maximumSize, maximumDepth: maximumDepth))
        } catch {
            throw JSONError(error, in: json)
        }
        self = try DocumentValue(root, in: json)
    }

    /// The value of a node `JSONReader` read from `text`; numbers become the nearest `Double`,
    /// and one too large for a `Double` (`1e400`) is refused at the node.
    private init(_ node: JSONNode, in text: String) throws(JSONError) {
        switch node.value {
        case .null:
            self = .null
        case .bool(let value):
            self = .bool(value)
        case .number(let literal):
            guard let value = Double(literal), value.isFinite else {
                throw .numberOutOfRange(literal, position: JSONPosition(utf8Offset: node.offset, in: text))
            }
            self = .number(value)
        case .string(let value):
            self = .string(value)
        case .array(let elements):
            var values: [DocumentValue] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try DocumentValue(element, in: text)) }
            self = .array(values)
        case .object(let members):
            // The reader refuses duplicate keys, so every member is an entry of its own.
            var entries: [String: DocumentValue] = [:]
            entries.reserveCapacity(members.count)
            for member in members { entries[member.key] = try DocumentValue(member.value, in: text) }
            self = .object(entries)
        }
    }

    /// The value as JSON text; the same value always gives the same text.
    ///
    /// Object keys are sorted, integral numbers print without a fraction (`3`, not `3.0`), other
    /// numbers in the shortest form that reads back to the same Double. JSON cannot hold NaN or
    /// infinity, so those print as `null`. `pretty` indents by two spaces, one entry a line.
    public func jsonString(pretty: Bool = false) -> String {
        var output = ""
        write(to: &output, pretty: pretty, indentation: 0)
        return output
    }

    private func write(to output: inout String, pretty: Bool, indentation: Int) {
        switch self {
        case .null:
            output += "null"
        case .bool(let value):
            output += value ? "true" : "false"
        case .number(let value):
            output += Self.jsonNumber(value)
        case .string(let value):
            JSONString.write(value, to: &output)
        case .base64(let bytes):
            JSONString.write(CanonicalBase64.encode(bytes), to: &output)
        case .array(let elements):
            let inner = indentation + 1
            Self.writeContainer(
                count: elements.count, brackets: ("[", "]"), pretty: pretty, indentation: indentation,
                to: &output
            ) {
                offset, output in
                elements[offset].write(to: &output, pretty: pretty, indentation: inner)
            }
        case .object(let entries):
            let keys = entries.keys.sorted()
            let inner = indentation + 1
            Self.writeContainer(
                count: keys.count, brackets: ("{", "}"), pretty: pretty, indentation: indentation, to: &output
            ) {
                offset, output in
                JSONString.write(keys[offset], to: &output)
                output += pretty ? ": " : ":"
                entries[keys[offset]]?.write(to: &output, pretty: pretty, indentation: inner)
            }
        }
    }

    /// Brackets around `count` comma-separated elements; pretty puts each on its own line.
    private static func writeContainer(
        count: Int, brackets: (open: String, close: String), pretty: Bool, indentation: Int,
        to output: inout String, writeElement: (Int, inout String) -> Void
    ) {
        output += brackets.open
        guard count > 0 else {
            output += brackets.close
            return
        }
        let elementIndent = pretty ? "\n" + String(repeating: "  ", count: indentation + 1) : ""
        for offset in 0..<count {
            if offset > 0 { output += "," }
            output += elementIndent
            writeElement(offset, &output)
        }
        if pretty { output += "\n" + String(repeating: "  ", count: indentation) }
        output += brackets.close
    }

    /// Integers up to 2^53 (every one a Double holds exactly) print as integers; everything else
    /// uses Swift's shortest round-trip form, which is valid JSON (`1e+300`, `0.1`, `5e-324`).
    static func jsonNumber(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) <= 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return "\(value)"
    }
}

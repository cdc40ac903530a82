/// One value of a JSON document as `StrictJSONReader` reads it, with the byte offset where it
/// starts so that later checks can say where a wrong value is.
struct JSONNode {
    enum Value {
        /// Members in document order (keys are unique: the reader refuses duplicates).
        case object([Member])
        case array([JSONNode])
        case string(String)
        /// The literal as written, already checked against the JSON number grammar, so integers
        /// can be read exactly and never pass through a `Double`.
        case number(String)
        case bool(Bool)
        case null
    }

    struct Member {
        let key: String
        let keyOffset: Int
        let value: JSONNode
    }

    let value: Value
    let offset: Int

    /// What kind of value this is, for messages ("should be an array, not a string").
    var kind: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }
}

/// Turns byte offsets into the line and column a person looks for in an editor.
struct TextPositions {
    let bytes: [UInt8]

    /// Lines are split at line feeds; columns count Unicode scalars (UTF-8 continuation bytes
    /// are skipped), both from 1. Computed only when an error is reported.
    func position(_ offset: Int) -> DrawingJSON.Position {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var column = 1
        for byte in bytes[0..<end] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return DrawingJSON.Position(line: line, column: column, offset: end)
    }
}

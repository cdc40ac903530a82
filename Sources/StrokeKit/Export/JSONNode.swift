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

/// One value of a JSON document as `JSONReader` reads it, with the UTF-8 offset where it starts,
/// so that whoever checks the document's shape can say where a wrong value is
/// (`TextPosition(utf8Offset:in:)` turns the offset into a line and column).
public struct JSONNode: Hashable, Sendable {
    /// The value itself; containers hold further nodes.
    public enum Value: Hashable, Sendable {
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

    /// One `"key": value` of an object, with the offset of the key's opening quote.
    public struct Member: Hashable, Sendable {
        public let key: String
        public let keyOffset: Int
        public let value: JSONNode

        public init(key: String, keyOffset: Int, value: JSONNode) {
            self.key = key
            self.keyOffset = keyOffset
            self.value = value
        }
    }

    public let value: Value
    /// The UTF-8 offset of the value's first character in the text.
    public let offset: Int

    public init(value: Value, offset: Int) {
        self.value = value
        self.offset = offset
    }
}

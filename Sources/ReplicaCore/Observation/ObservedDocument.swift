/// A document as it was when its observation started, read on demand: all of its fields at once,
/// or one map's entries one at a time, so a reader of a drawing's 100,000 strokes never has the
/// replica build a dictionary of all of them first.
///
/// It holds the document's state as a value (shared with the replica until either changes).
public struct ObservedDocument: Equatable, Sendable {
    private let state: DocumentState?

    public init(_ state: DocumentState?) {
        self.state = state
    }

    /// Whether the document exists for readers.
    public var exists: Bool { state?.hasFields ?? false }

    /// The fields (without `_id`), nil when the document does not exist.
    public var fields: [String: DocumentValue]? { state?.fields }

    /// How many entries the field `name` has held, live or removed: room enough for its entries.
    public func entryCapacity(ofMap name: String) -> Int {
        state?.root.children[name]?.children.count ?? 0
    }

    /// Calls `body` with each entry of the map in the field `name` (in no particular order),
    /// exactly the entries `fields?[name]` would hold; nothing when it is not a map.
    public func forEachEntry(ofMap name: String, _ body: (String, DocumentValue) throws -> Void) rethrows {
        try state?.forEachEntry(ofMapAt: [name], body)
    }

    /// Two observed documents are equal when they show the same fields.
    public static func == (lhs: ObservedDocument, rhs: ObservedDocument) -> Bool {
        lhs.fields == rhs.fields
    }
}

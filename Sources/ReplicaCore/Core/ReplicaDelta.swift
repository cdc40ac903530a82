/// Writes of one collection that another replica is missing: per document, events in dot order,
/// removed ones included (without their values) so that removals travel too.
public struct ReplicaDelta: Equatable, Sendable {
    /// The events of one document.
    public struct DocumentDelta: Equatable, Sendable {
        public var documentID: String
        public var events: [DocumentEvent] {
            didSet { encodedBlock = nil }
        }
        /// The event block these events were decoded from (format 2), while `events` is unchanged:
        /// applying the delta stores it as it came instead of encoding the events again.
        package var encodedBlock: ArraySlice<UInt8>?

        public init(documentID: String, events: [DocumentEvent]) {
            self.documentID = documentID
            self.events = events
        }

        /// The same document and events, however they were decoded.
        public static func == (lhs: DocumentDelta, rhs: DocumentDelta) -> Bool {
            lhs.documentID == rhs.documentID && lhs.events == rhs.events
        }
    }

    public var collection: String
    /// In document id order.
    public var documents: [DocumentDelta]

    public init(collection: String, documents: [DocumentDelta]) {
        self.collection = collection
        self.documents = documents
    }

    public var isEmpty: Bool { documents.allSatisfy { $0.events.isEmpty } }

    public var eventCount: Int { documents.reduce(0) { $0 + $1.events.count } }
}

/// What `apply` did with a delta.
public enum ApplyOutcome: Equatable, Sendable {
    /// The delta is merged. `newEvents` counts the events this replica did not have (zero for a
    /// duplicate); `changedDocumentIDs` lists documents whose stored state changed.
    case applied(newEvents: Int, changedDocumentIDs: [String])
    /// Some writes in the delta follow writes this replica has not seen, so nothing was applied.
    /// `have` is what this replica holds of those documents: ask the sender for changes since it.
    case refused(collection: String, have: DocumentVersions)
}

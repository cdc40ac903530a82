/// The outcome of one statement: the documents a SELECT found (with `_id`, in `_id` order), or for
/// a mutation the number of documents it changed and their ids.
public struct QueryResult: Equatable, Sendable {
    public var documents: [[String: DocumentValue]]
    public var affectedCount: Int
    public var affectedDocumentIDs: [String]

    public init(
        documents: [[String: DocumentValue]] = [], affectedCount: Int = 0, affectedDocumentIDs: [String] = []
    ) {
        self.documents = documents
        self.affectedCount = affectedCount
        self.affectedDocumentIDs = affectedDocumentIDs
    }
}

/// Which documents a peer wants: a whole collection, or one document of it.
public struct SyncSubscription: Hashable, Sendable, CustomStringConvertible {
    public var collection: String
    public var documentID: String?

    public init(collection: String, documentID: String? = nil) {
        self.collection = collection
        self.documentID = documentID
    }

    public var description: String {
        documentID.map { "\(collection)/\($0)" } ?? collection
    }
}

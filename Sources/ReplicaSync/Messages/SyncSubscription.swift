/// Which documents a peer wants: a whole collection, or one document of it.
public struct SyncSubscription: Hashable, Sendable, CustomStringConvertible {
    public var collection: String
    public var documentID: String?

    public init(collection: String, documentID: String? = nil) {
        self.collection = collection
        self.documentID = documentID
    }

    /// Whether some document could be in both: the same collection, and the same document
    /// unless one of them is the whole collection.
    public func overlaps(_ other: SyncSubscription) -> Bool {
        guard collection == other.collection else { return false }
        guard let documentID, let otherID = other.documentID else { return true }
        return documentID == otherID
    }

    public var description: String {
        documentID.map { "\(collection)/\($0)" } ?? collection
    }
}

/// A query this peer wants other peers to send it: a whole collection, or one document of it.
/// The registry is persisted with the replica; sync sends it to peers.
public struct ReplicaSubscription: Hashable, Sendable, CustomStringConvertible {
    public var collection: String
    public var documentID: String?

    public init(collection: String, documentID: String? = nil) {
        self.collection = collection
        self.documentID = documentID
    }

    /// Whether a document falls under this subscription.
    public func covers(_ key: DocumentKey) -> Bool {
        key.collection == collection && (documentID == nil || documentID == key.id)
    }

    public var description: String {
        documentID.map { "\(collection)/\($0)" } ?? collection
    }
}

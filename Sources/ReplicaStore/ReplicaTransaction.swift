import ReplicaCore

/// The handle a `write` body runs statements through. It is valid only inside that body.
public final class ReplicaTransaction {
    private unowned let replica: Replica
    var isOpen = true

    init(replica: Replica) {
        self.replica = replica
    }

    /// Runs one statement inside the transaction; SELECT sees the transaction's own writes.
    @discardableResult
    public func execute(_ statement: DQLStatement, arguments: [String: DocumentValue] = [:]) throws
        -> QueryResult
    {
        try checkOpen()
        return try replica.state.execute(
            statement, arguments: arguments, wall: replica.configuration.wallClock())
    }

    /// Sets map entries of one document without DQL: what
    /// `INSERT INTO collection DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE_LOCAL_DIFF` does with the
    /// document nesting them under `_id` (see `ReplicaState.upsert(_:into:wall:)`).
    @discardableResult
    public func upsert(_ entries: [DocumentEntry], into collection: String, id: String) throws -> QueryResult
    {
        try upsert(entries, into: DocumentKey(collection: collection, id: id))
    }

    /// `upsert(_:into:id:)` into the document `key`: for a caller that writes one document again
    /// and again (a drawing's coordinator) and so hashes its names once, when it makes the key.
    @discardableResult
    public func upsert(_ entries: [DocumentEntry], into key: DocumentKey) throws -> QueryResult {
        try checkOpen()
        return try replica.state.upsert(entries, into: key, wall: replica.configuration.wallClock())
    }

    /// Removes map entries of one document without DQL: what
    /// ``UPDATE collection UNSET `path`, ... WHERE _id = :id`` does.
    @discardableResult
    public func unset(_ paths: [[String]], in collection: String, id: String) throws -> QueryResult {
        try unset(paths, in: DocumentKey(collection: collection, id: id))
    }

    /// `unset(_:in:id:)` in the document `key` (see `upsert(_:into:)`).
    @discardableResult
    public func unset(_ paths: [[String]], in key: DocumentKey) throws -> QueryResult {
        try checkOpen()
        return try replica.state.unset(paths, in: key, wall: replica.configuration.wallClock())
    }

    private func checkOpen() throws {
        guard isOpen else {
            throw ReplicaError.unsupportedStatement(reason: "the transaction has already ended")
        }
    }
}

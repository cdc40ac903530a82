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
        guard isOpen else {
            throw ReplicaError.unsupportedStatement(reason: "the transaction has already ended")
        }
        return try replica.state.execute(
            statement, arguments: arguments, wall: replica.configuration.wallClock())
    }
}

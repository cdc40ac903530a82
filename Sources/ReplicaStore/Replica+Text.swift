import ReplicaCore

extension Replica {
    /// Parses DQL text and runs it. Throws `DQLSyntaxError` for bad text, `ReplicaError` otherwise.
    @discardableResult
    public func execute(_ dql: String, arguments: [String: DocumentValue] = [:]) throws -> QueryResult {
        try execute(try DQLParser.parse(dql), arguments: arguments)
    }

    /// Parses a SELECT and observes it (see `observe(_:arguments:handler:)`).
    public func observe(
        _ dql: String, arguments: [String: DocumentValue] = [:], handler: @escaping (QueryResult) -> Void
    ) throws -> ObservationToken {
        try observe(try DQLParser.parse(dql), arguments: arguments, handler: handler)
    }
}

extension ReplicaTransaction {
    /// Parses DQL text and runs it inside the transaction.
    @discardableResult
    public func execute(_ dql: String, arguments: [String: DocumentValue] = [:]) throws -> QueryResult {
        try execute(try DQLParser.parse(dql), arguments: arguments)
    }
}

extension Replica {
    /// A registered query and the last result its handler saw.
    struct Observer {
        var select: DQLSelect
        var arguments: [String: DocumentValue]
        var lastResult: QueryResult
        var handler: (QueryResult, Set<[String]>?) -> Void
    }

    /// Calls `handler` with the current result of a SELECT now, then once after every commit that
    /// changed that result. Handlers run after the commit, on this thread, and may use the replica.
    public func observe(
        _ statement: DQLStatement, arguments: [String: DocumentValue] = [:],
        handler: @escaping (QueryResult) -> Void
    ) throws -> ObservationToken {
        try observe(statement, arguments: arguments) { result, _ in handler(result) }
    }

    /// `observe(_:arguments:handler:)`, also telling the handler where the result changed: for a
    /// query of one document whose result was patched (see `ReplicaState.patch`), the paths the
    /// commit changed in it; nil for the first result and whenever the query ran again. A reader
    /// of a large document then looks only at those paths.
    public func observe(
        _ statement: DQLStatement, arguments: [String: DocumentValue] = [:],
        changes handler: @escaping (_ result: QueryResult, _ changedPaths: Set<[String]>?) -> Void
    ) throws -> ObservationToken {
        guard case .select(let select) = statement else {
            throw ReplicaError.unsupportedStatement(reason: "only SELECT can be observed")
        }
        let result = try state.select(select, arguments: arguments)
        let id = nextHandlerID
        nextHandlerID += 1
        observers[id] = Observer(select: select, arguments: arguments, lastResult: result, handler: handler)
        pendingDeliveries.append { handler(result, nil) }
        drainDeliveries()
        return ObservationToken { [weak self] in self?.observers[id] = nil }
    }

    /// Calls `handler` after every commit that changed documents (local writes and applied deltas).
    public func onCommit(_ handler: @escaping (ReplicaCommit) -> Void) -> ObservationToken {
        let id = nextHandlerID
        nextHandlerID += 1
        commitHandlers[id] = handler
        return ObservationToken { [weak self] in self?.commitHandlers[id] = nil }
    }

    /// Finds the observers whose result changed and delivers to them, after the commit.
    func didCommit(_ changedPaths: [DocumentKey: Set<[String]>], isLocal: Bool) {
        guard !changedPaths.isEmpty else { return }
        let collections = Set(changedPaths.keys.map(\.collection))
        for id in observers.keys.sorted() {
            guard var observer = observers[id], collections.contains(observer.select.collection) else { continue }
            let result: QueryResult
            var delivered: Set<[String]>?
            if let key = Self.observedDocument(of: observer) {
                // A query for one `_id` is not run again for commits to other documents (with
                // many drawings, every stroke would otherwise re-read every open drawing).
                guard let paths = changedPaths[key] else { continue }
                // Patched in place: the stored copy is released first so it is not shared.
                observers[id]?.lastResult = QueryResult()
                var patched = observer.lastResult
                observer.lastResult = QueryResult()
                let outcome = state.patch(&patched, of: observer.select, document: key, changedPaths: paths)
                observers[id]?.lastResult = patched
                if outcome == false { continue }
                if outcome == true {
                    result = patched
                    delivered = paths
                } else {
                    guard let fresh = try? state.select(observer.select, arguments: observer.arguments),
                        fresh != patched
                    else { continue }
                    result = fresh
                }
            } else {
                guard let fresh = try? state.select(observer.select, arguments: observer.arguments),
                    fresh != observer.lastResult
                else { continue }
                result = fresh
            }
            observers[id]?.lastResult = result
            let deliveredPaths = delivered
            pendingDeliveries.append { [weak self] in
                // Skipped if cancelled by an earlier handler in this same drain.
                if self?.observers[id] != nil { observer.handler(result, deliveredPaths) }
            }
        }
        let commit = ReplicaCommit(changedPaths: changedPaths, isLocal: isLocal)
        for id in commitHandlers.keys.sorted() {
            pendingDeliveries.append { [weak self] in self?.commitHandlers[id]?(commit) }
        }
        drainDeliveries()
    }

    /// The one document an observer's query selects (a query for one `_id`); nil for a query
    /// over the collection, or one whose `_id` argument is not a string.
    static func observedDocument(of observer: Observer) -> DocumentKey? {
        guard let filter = observer.select.filter,
            let id = try? ReplicaState.documentID(filter, observer.arguments)
        else { return nil }
        return DocumentKey(collection: observer.select.collection, id: id)
    }

    /// Runs deliveries in order; a handler that commits again queues more behind the current ones
    /// instead of running them inside itself.
    func drainDeliveries() {
        guard !isDelivering else { return }
        isDelivering = true
        defer { isDelivering = false }
        while !pendingDeliveries.isEmpty {
            pendingDeliveries.removeFirst()()
        }
    }
}

import ReplicaCore

extension Replica {
    /// A registered observer: a query and the last result its handler saw, or one document.
    enum Observer {
        case query(
            select: DQLSelect, arguments: [String: DocumentValue], lastResult: QueryResult,
            handler: (QueryResult) -> Void)
        case document(DocumentKey, handler: (DocumentObservation) -> Void)

        var collection: String {
            switch self {
            case .query(let select, _, _, _): return select.collection
            case .document(let key, _): return key.collection
            }
        }
    }

    /// Calls `handler` with the current result of a SELECT now, then once after every commit that
    /// changed that result. Handlers run after the commit, on this thread, and may use the replica.
    /// The query runs again after each commit to its collection (to its document, for a query of
    /// one `_id`); a reader of one large document uses `observeDocument` instead.
    public func observe(
        _ statement: DQLStatement, arguments: [String: DocumentValue] = [:],
        handler: @escaping (QueryResult) -> Void
    ) throws -> ObservationToken {
        guard case .select(let select) = statement else {
            throw ReplicaError.unsupportedStatement(reason: "only SELECT can be observed")
        }
        let result = try state.select(select, arguments: arguments)
        return register(.query(select: select, arguments: arguments, lastResult: result, handler: handler)) {
            handler(result)
        }
    }

    /// Calls `handler` with the document `id` of `collection` now (read on demand, see
    /// `ObservedDocument`), then after every commit that wrote to it with the paths the commit changed and
    /// what each shows now. Nothing is copied or compared per observer, so a commit of one stroke
    /// costs the same in a drawing of ten strokes and of ten thousand.
    public func observeDocument(
        _ id: String, in collection: String, handler: @escaping (DocumentObservation) -> Void
    ) -> ObservationToken {
        let key = DocumentKey(collection: collection, id: id)
        // The state as it is now (shared, not copied, unless a commit comes before the delivery).
        let document = ObservedDocument(state.document(key))
        return register(.document(key, handler: handler)) { handler(.initial(document)) }
    }

    /// Calls `handler` after every commit that changed documents (local writes and applied deltas).
    public func onCommit(_ handler: @escaping (ReplicaCommit) -> Void) -> ObservationToken {
        let id = nextHandlerID
        nextHandlerID += 1
        commitHandlers[id] = handler
        return ObservationToken { [weak self] in self?.commitHandlers[id] = nil }
    }

    /// Keeps `observer` and delivers its first value, behind any deliveries already queued.
    private func register(_ observer: Observer, first: @escaping () -> Void) -> ObservationToken {
        let id = nextHandlerID
        nextHandlerID += 1
        observers[id] = observer
        pendingDeliveries.append(first)
        drainDeliveries()
        return ObservationToken { [weak self] in self?.observers[id] = nil }
    }

    /// Finds the observers whose result changed and delivers to them, after the commit.
    func didCommit(_ changedPaths: [DocumentKey: Set<[String]>], isLocal: Bool) {
        guard !changedPaths.isEmpty, !observers.isEmpty || !commitHandlers.isEmpty else { return }
        for id in observers.keys.sorted() {
            guard let observer = observers[id],
                changedPaths.keys.contains(where: { $0.collection == observer.collection })
            else { continue }
            switch observer {
            case .query(let select, let arguments, let lastResult, let handler):
                // A query for one `_id` is not run again for commits to other documents (with
                // many drawings, every stroke would otherwise re-read every open drawing).
                if let key = Self.observedDocument(of: select, arguments), changedPaths[key] == nil {
                    continue
                }
                guard let fresh = try? state.select(select, arguments: arguments), fresh != lastResult else {
                    continue
                }
                observers[id] = .query(
                    select: select, arguments: arguments, lastResult: fresh, handler: handler)
                deliver(to: id) { handler(fresh) }
            case .document(let key, let handler):
                guard let paths = changedPaths[key] else { continue }
                let patches = state.patches(of: key, changedPaths: paths)
                deliver(to: id) { handler(.changed(patches)) }
            }
        }
        let commit = ReplicaCommit(changedPaths: changedPaths, isLocal: isLocal)
        for id in commitHandlers.keys.sorted() {
            pendingDeliveries.append { [weak self] in self?.commitHandlers[id]?(commit) }
        }
        drainDeliveries()
    }

    /// Queues a delivery to observer `id`, skipped if an earlier handler in the same drain
    /// cancelled it.
    private func deliver(to id: Int, _ delivery: @escaping () -> Void) {
        pendingDeliveries.append { [weak self] in
            if self?.observers[id] != nil { delivery() }
        }
    }

    /// The one document a query selects (a query for one `_id`); nil for a query over the
    /// collection, or one whose `_id` argument is not a string.
    static func observedDocument(of select: DQLSelect, _ arguments: [String: DocumentValue]) -> DocumentKey? {
        guard let filter = select.filter, let id = try? ReplicaState.documentID(filter, arguments) else {
            return nil
        }
        return DocumentKey(collection: select.collection, id: id)
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

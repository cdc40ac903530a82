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
    /// `ObservedDocument`), then after every commit that changed what it shows with the paths
    /// whose winner changed and what each shows now (a commit whose events all lost, or only
    /// restated what shows, is not delivered). Nothing is copied or compared per observer, so a commit of one stroke
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
    ///
    /// With `includingPaths` false the handler is told which documents changed, with empty sets
    /// of paths unless another handler asks for them: gathering the paths is a set entry for
    /// every event a commit wrote (ten thousand for a large delta), which a handler that only
    /// notes that something was committed does not read.
    public func onCommit(includingPaths: Bool = true, _ handler: @escaping (ReplicaCommit) -> Void)
        -> ObservationToken
    {
        let id = nextHandlerID
        nextHandlerID += 1
        commitHandlers[id] = CommitHandler(includesPaths: includingPaths, call: handler)
        return ObservationToken { [weak self] in self?.commitHandlers[id] = nil }
    }

    /// A commit handler, and whether it reads the paths a commit changed.
    struct CommitHandler {
        let includesPaths: Bool
        let call: (ReplicaCommit) -> Void
    }

    /// Whether a commit handler reads the changed paths (only then are they gathered).
    var commitHandlersReadPaths: Bool {
        commitHandlers.entries.contains { $0.handler.includesPaths }
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

    /// What one commit changed, as it is told: per document, the paths of every event written or
    /// removed (`ReplicaCommit.changedPaths`; empty sets when no commit handler reads them), and, for
    /// a document observed alone, the paths that may show something else now. A document's key
    /// in `documents` is what a query observer looks at.
    struct CommittedChanges {
        /// Per changed document, its written paths and (observed alone) its shown ones: one
        /// table for both, so a commit of one document builds one table, not two.
        var documents: [DocumentKey: (written: Set<[String]>, shown: [ShownPath]?)] = [:]
        /// Whether document observers are told every written path (adopting a whole state,
        /// whose paths are gathered as the events are dropped and taken), not `shown`.
        private(set) var tellsWritten = false

        init() {}

        init(written: [DocumentKey: Set<[String]>]) {
            documents = written.mapValues { (written: $0, shown: nil) }
            tellsWritten = true
        }

        /// The written paths of every changed document: what commit handlers are told.
        var written: [DocumentKey: Set<[String]>] { documents.mapValues(\.written) }
    }

    /// Whether a document observer watches `key` (only then are the paths it shows read).
    func isObservedAlone(_ key: DocumentKey) -> Bool {
        observers.entries.contains { entry in
            if case .document(let observed, _) = entry.handler { return observed == key }
            return false
        }
    }

    /// Finds the observers whose result changed and delivers to them, after the commit. A
    /// document observer whose document shows nothing new (every event the commit brought lost,
    /// or restated what wins) is not called.
    func didCommit(_ changes: CommittedChanges, isLocal: Bool) {
        let changed = changes.documents
        guard !changed.isEmpty, !observers.isEmpty || !commitHandlers.isEmpty else { return }
        // By position, in the order of registration: handlers run later, after the loop, so
        // none is added or cancelled while it runs (a query's entry is only replaced).
        for position in observers.entries.indices {
            let (id, observer) = observers.entries[position]
            guard changed.keys.contains(where: { $0.collection == observer.collection }) else { continue }
            switch observer {
            case .query(let select, let arguments, let lastResult, let handler):
                // A query for one `_id` is not run again for commits to other documents (with
                // many drawings, every stroke would otherwise re-read every open drawing).
                if let key = Self.observedDocument(of: select, arguments), changed[key] == nil {
                    continue
                }
                guard let fresh = try? state.select(select, arguments: arguments), fresh != lastResult else {
                    continue
                }
                observers[id] = .query(
                    select: select, arguments: arguments, lastResult: fresh, handler: handler)
                deliver(to: id) { handler(fresh) }
            case .document(let key, let handler):
                let patches: [DocumentPatch]
                if changes.tellsWritten, let paths = changed[key]?.written {
                    patches = state.patches(of: key, changedPaths: paths)
                } else if let shown = changed[key]?.shown {
                    patches = state.patches(of: key, shown: shown)
                } else {
                    continue
                }
                if patches.isEmpty { continue }
                deliver(to: id) { handler(.changed(patches)) }
            }
        }
        if !commitHandlers.isEmpty {
            let commit = ReplicaCommit(changedPaths: changes.written, isLocal: isLocal)
            for (id, _) in commitHandlers.entries {
                pendingDeliveries.append { [weak self] in self?.commitHandlers[id]?.call(commit) }
            }
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

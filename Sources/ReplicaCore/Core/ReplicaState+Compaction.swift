extension ReplicaState {
    /// Records a document's compacted vector as the store keeps it, after its events were
    /// loaded (a compacted vector loaded first would make the loader ignore the events it
    /// covers).
    package mutating func loadCompacted(_ compacted: VersionVector, into key: DocumentKey) {
        guard !compacted.counters.isEmpty else { return }
        modify(key) { state in
            state.markCompacted(compacted)
            return ((), [])
        }
    }

    /// Takes another replica's whole state of one document (see `DocumentState.adopt`); the
    /// touched events are unsaved, like an applied delta's. Returns the paths that changed (for
    /// observers), empty when nothing did.
    public mutating func adopt(
        fullState events: [DocumentEvent], compacted: VersionVector, into key: DocumentKey, wall: Int64
    ) throws -> Set<[String]> {
        try Self.validate(events, documentID: key.id)
        // No copy of the document from before (it would make the merge copy every event): the
        // dropped events' paths are gathered as they go.
        let paths = modify(key) { state -> (Set<[String]>, [Dot]) in
            var droppedPaths: [[String]] = []
            let (touched, _) = state.adopt(
                fullState: events, compacted: compacted, droppedPaths: &droppedPaths)
            var paths = Set<[String]>(minimumCapacity: touched.count + droppedPaths.count)
            for dot in touched { if let path = state.event(at: dot)?.path { paths.insert(path) } }
            for path in droppedPaths { paths.insert(path) }
            return (paths, touched)
        }
        if let latest = events.map(\.timestamp).max() { clock.observe(latest, wall: wall) }
        return paths
    }
}

extension ReplicaState {
    /// The whole state of each selected document whose compacted vector `since` does not cover
    /// (a peer holding `since` would need removals that are gone); nil when there is none.
    public func fullState(collection: String, documentID: String?, since: DocumentVersions)
        -> ReplicaFullState?
    {
        var documents: [ReplicaDelta.DocumentDelta] = []
        var compacted = DocumentVersions()
        for id in documentID.map({ [$0] }) ?? documentIDs(in: collection) {
            guard let state = document(DocumentKey(collection: collection, id: id)),
                !state.compacted.counters.isEmpty, !state.compacted.isCovered(by: since[id])
            else { continue }
            var events: [DocumentEvent] = []
            events.reserveCapacity(state.eventCount)
            state.forEachEvent { events.append($0) }
            documents.append(.init(documentID: id, events: events))
            compacted.vectors[id] = state.compacted
        }
        guard !documents.isEmpty else { return nil }
        return ReplicaFullState(
            delta: ReplicaDelta(collection: collection, documents: documents), compacted: compacted)
    }
}

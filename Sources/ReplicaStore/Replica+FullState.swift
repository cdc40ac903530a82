import ReplicaCore

/// The full-state exchange of compaction: what a peer gets instead of a delta when its vector
/// does not cover a document's compacted vector, and taking one.
extension Replica {
    /// The whole state of the selected documents that a peer holding `since` cannot be sent a
    /// delta for (their compacted vector is not covered by its vector); nil when there is none.
    public func fullState(collection: String, documentID: String?, since: DocumentVersions)
        -> ReplicaFullState?
    {
        state.fullState(collection: collection, documentID: documentID, since: since)
    }

    /// Takes a peer's whole state of some documents (see `DocumentState.adopt`: what it dropped
    /// goes here too, what this replica wrote above its compacted vector stays) in one
    /// transaction that also writes each document's snapshot anew, with its compacted vector, so
    /// a reopen never finds the dropped events again. Observers hear of it as of a delta.
    public func adopt(_ fullState: ReplicaFullState) throws -> ApplyOutcome {
        if isReadOnly { throw ReplicaError.readOnly(directory: directory) }
        for document in fullState.delta.documents {
            try ReplicaState.validate(document.events, documentID: document.documentID)
        }
        let collection = fullState.delta.collection
        let wall = configuration.wallClock()
        var changed: [DocumentKey: Set<[String]>] = [:]
        var newEvents = 0
        let keys = fullState.delta.documents.map { DocumentKey(collection: collection, id: $0.documentID) }
        do {
            for (key, document) in zip(keys, fullState.delta.documents) {
                let before = state.document(key)?.eventCount ?? 0
                let paths = try state.adopt(
                    fullState: document.events, compacted: fullState.compacted[document.documentID],
                    into: key,
                    wall: wall)
                newEvents += max(0, (state.document(key)?.eventCount ?? 0) - before)
                if !paths.isEmpty { changed[key] = paths }
            }
            try database.connection.transaction {
                // Each adopted document's snapshot holds its whole state: a log row of what the
                // adopt touched would be deleted by that snapshot in this same transaction.
                for key in keys { state.discardUnsaved(key) }
                _ = try persistUnsaved()
                for (key, document) in zip(keys, fullState.delta.documents) {
                    try writeWholeSnapshot(key, received: document)
                }
            }
        } catch {
            try restoreCommittedState(after: error)
        }
        didCommit(CommittedChanges(written: changed), isLocal: false)
        return .applied(newEvents: newEvents, changedDocumentIDs: changed.keys.map(\.id).sorted())
    }
}

import ReplicaCore

extension Replica {
    /// Per document, the version vector: what sync sends to learn what the other side lacks.
    public func versions(collection: String, documentID: String?) throws -> DocumentVersions {
        state.versions(collection: collection, documentID: documentID)
    }

    /// Every write (and removal) of the selected documents that `since` does not cover.
    public func changes(collection: String, documentID: String?, since: DocumentVersions) throws
        -> ReplicaDelta
    {
        state.changes(collection: collection, documentID: documentID, since: since)
    }

    /// Merges a peer's delta in one transaction and tells observers. A delta that depends on writes
    /// not seen yet is refused whole (see `ApplyOutcome.refused`).
    public func apply(_ delta: ReplicaDelta) throws -> ApplyOutcome {
        if isReadOnly { throw ReplicaError.readOnly(directory: directory) }
        // `state.apply` validates the whole delta before it changes anything (a malformed or
        // refused delta leaves memory as it was); a failure after that reloads what is committed.
        let outcome = try state.apply(delta, wall: configuration.wallClock())
        guard case .applied = outcome else { return outcome }
        try commitApplied()
        return outcome
    }

    /// Writes what applying peers' deltas left in memory in one transaction, then tells
    /// observers; if the transaction fails, memory is put back to what SQLite holds and this
    /// throws.
    func commitApplied() throws {
        let changed: CommittedChanges
        do {
            changed = try database.connection.transaction { try persistUnsaved() }
        } catch {
            try restoreCommittedState(after: error)
        }
        didCommit(changed, isLocal: false)
    }
}

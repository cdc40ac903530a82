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
    ///
    /// A large delta whose events are all new here is stored while it merges: its received blocks
    /// go into the log on another thread (`ReceivedBlockWrite`), what the merge changed besides
    /// them joins them in the same transaction, and the commit is written there too while this
    /// thread works out what observers are told.
    public func apply(_ delta: consuming ReplicaDelta) throws -> ApplyOutcome {
        if isReadOnly { throw ReplicaError.readOnly(directory: directory) }
        // The whole delta is checked before anything changes (a malformed or refused delta
        // leaves memory as it was); a failure after that reloads what is committed.
        var write: ReceivedBlockWrite?
        let (database, minimumBytes) = (database, configuration.concurrentWriteMinimumBytes)
        let outcome = try state.apply(delta, wall: configuration.wallClock()) { blocks, clock in
            write = ReceivedBlockWrite.start(
                blocks, database: database, clock: clock, minimumBytes: minimumBytes)
            return write != nil
        }
        guard case .applied = outcome else { return outcome }
        try commitApplied(after: write)
        return outcome
    }

    /// Writes what applying peers' deltas left in memory in one transaction (the one `write`
    /// began, when there is one), then tells observers; if the transaction fails, memory is put
    /// back to what SQLite holds and this throws.
    func commitApplied(after write: ReceivedBlockWrite? = nil) throws {
        let changed: CommittedChanges
        do {
            if let write {
                try write.finish()
                let changes: [ReplicaState.UnsavedDocument]
                do {
                    changes = try storeUnsaved()
                } catch {
                    database.connection.rollback()
                    throw error
                }
                // The commit is written there while what observers are told is worked out here.
                write.commit()
                changed = committedChanges(of: changes)
                try write.finish()
            } else {
                changed = try database.connection.transaction { try persistUnsaved() }
            }
        } catch {
            try restoreCommittedState(after: error)
        }
        didCommit(changed, isLocal: false)
    }
}

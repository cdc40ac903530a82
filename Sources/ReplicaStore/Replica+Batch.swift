import ReplicaCore

extension Replica {
    /// Merges several peers' deltas in one SQLite transaction and tells observers once: a relay's
    /// group commit, where every delta that arrived during one turn of its loop costs one WAL
    /// write together rather than one each.
    ///
    /// Each delta is judged on its own, in order, as `apply(_:)` judges one: a malformed delta
    /// fails (its result is the error), one that follows writes not seen yet is refused whole,
    /// and neither changes anything or keeps the others out. Nothing of the batch is committed
    /// before all of it is, so a caller acknowledges a delta only after this returns; if the
    /// transaction fails, this throws, memory is put back to what SQLite holds, and none of the
    /// batch was kept.
    public func apply(_ deltas: [ReplicaDelta]) throws -> [Result<ApplyOutcome, any Error>] {
        if isReadOnly { throw ReplicaError.readOnly(directory: directory) }
        let wall = configuration.wallClock()
        // `state.apply` validates each delta before it changes anything, so one that fails
        // leaves memory as the deltas before it left it.
        let outcomes = deltas.map { delta in Result { try state.apply(delta, wall: wall) } }
        guard outcomes.contains(where: { if case .success(.applied) = $0 { true } else { false } }) else {
            return outcomes
        }
        try commitApplied()
        return outcomes
    }
}

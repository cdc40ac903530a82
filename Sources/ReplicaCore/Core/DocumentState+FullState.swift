extension DocumentState {
    /// How many events `compact(stable:)` would drop now: the scheduler compacts a document only
    /// when enough of it would go to pay for writing its snapshot again.
    public func droppableCount(stable: VersionVector) -> Int {
        let stable = stable.meet(versionVector)
        return events.values.reduce(0) { count, event in
            event.isRemoved && stable.contains(event.dot) && event.context.isCovered(by: stable)
                ? count + 1 : count
        }
    }

    /// Takes another replica's whole state of this document, which it compacted up to
    /// `compacted` (see `compact(stable:)`): every event it holds, and the promise that every
    /// dot `compacted` covers that it lacks was removed and dropped there.
    ///
    /// This replica's events covered by `compacted` that the state lacks are therefore removed
    /// and dropped here too (they were, where every replica that counted held them), the
    /// state's events are merged, and the compacted vector and the version vector grow to cover
    /// `compacted`. Events of this replica above `compacted` (written or received while the
    /// other side forgot it) are kept, and go back to it as an ordinary delta. Returns the dots
    /// whose stored state changed and the dots dropped.
    public mutating func adopt(fullState incoming: [DocumentEvent], compacted: VersionVector) -> (
        touched: [Dot], dropped: [Dot]
    ) {
        let held = Set(incoming.map(\.dot))
        let dropped = events.keys.filter { compacted.contains($0) && !held.contains($0) }.sorted()
        for dot in dropped {
            // Out of the live index first (removing it is what the other side saw), then gone.
            if let event = events[dot], !event.isRemoved { integrate(event.removed) }
            dropEvent(dot)
        }
        var touched: [Dot] = []
        for event in incoming.sorted(by: { $0.dot < $1.dot }) { touched += integrate(event) }
        markCompacted(compacted)
        return (touched, dropped)
    }
}

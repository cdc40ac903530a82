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
        var droppedPaths: [[String]] = []
        return adopt(fullState: incoming, compacted: compacted, droppedPaths: &droppedPaths)
    }

    /// `adopt(fullState:compacted:)`, also appending the path of each dropped event to
    /// `droppedPaths` (the caller's observers hear of them), so no copy of the document from
    /// before is needed to find them.
    mutating func adopt(
        fullState incoming: [DocumentEvent], compacted: VersionVector, droppedPaths: inout [[String]]
    ) -> (touched: [Dot], dropped: [Dot]) {
        var dropped: [Dot] = []
        // Only events held here can be dropped: a replica that held nothing (a newcomer) skips this.
        if eventCount > 0, !compacted.isEmpty {
            let held = Set(incoming.map(\.dot))
            // `dots` is in dot order, so `dropped` is too.
            dropped = dots.filter { compacted.contains($0) && !held.contains($0) }
            for dot in dropped {
                guard let event = event(at: dot) else { continue }
                droppedPaths.append(event.path)
                // Out of the live index first (removing it is what the other side saw), then gone.
                if !event.isRemoved { integrate(event.removed) }
                dropEvent(dot)
            }
        }
        var touched: [Dot] = []
        touched.reserveCapacity(incoming.count)
        if zip(incoming, incoming.dropFirst()).allSatisfy({ $0.dot < $1.dot }) {
            for event in incoming { integrate(event, touched: &touched) }
        } else {
            for event in incoming.sorted(by: { $0.dot < $1.dot }) { integrate(event, touched: &touched) }
        }
        markCompacted(compacted)
        return (touched, dropped)
    }

    /// The events to store beside `received` (events in dot order, as a block holds them) so
    /// that loading both gives this document: every held event the block lacks or holds in
    /// another form (an event removed here since), in dot order. Nil when the block holds an
    /// event this document does not (dropped or ignored here) or holds in another content: it
    /// cannot be stored as it is.
    package func eventsBeside(received: [DocumentEvent]) -> [DocumentEvent]? {
        var others: [DocumentEvent] = []
        var next = 0
        var inOrder = true
        store.forEachInDotOrder { event in
            guard inOrder else { return }
            if next < received.count, received[next].dot < event.dot {
                // A received event this document lacks.
                inOrder = false
                return
            }
            if next < received.count, received[next].dot == event.dot {
                let came = received[next]
                next += 1
                if came == event { return }
                // Removed here since: its removed form goes beside, and loading both removes it.
                // Any other difference (the same dot with other content) is not stored as is.
                if event.isRemoved, !came.isRemoved, came.removed == event {
                    others.append(event)
                } else {
                    inOrder = false
                }
            } else {
                others.append(event)
            }
        }
        guard inOrder, next == received.count else { return nil }
        return others
    }
}

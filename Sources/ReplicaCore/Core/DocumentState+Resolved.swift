/// Loading the stored form of a document's resolved state: a snapshot, whose events were written
/// in their current form (live or removed) by a replica that had already worked out every removal.
///
/// Integrating an event (`integrate`) checks the removal facts on its path and removes the live
/// events that it covers; for an event of a snapshot both answers are already in its stored form.
/// Loading therefore only records the event, its place in the live set when it is stored live,
/// and the removal facts it contributes to each level of its path (which later events still need).
/// A snapshot's parts may have been written at different moments of one checkpoint, so one event
/// can come twice (a block as it came and, beside it, its removed form): the removed form wins,
/// as in `integrate`. Events that came after the snapshot (the log) are integrated as usual.
extension DocumentState {
    /// A document holding these events of a resolved state, in any order (what loading a snapshot
    /// builds): for a state that `DocumentState(events:)` built from the same events, identical.
    package init(resolved events: some Sequence<DocumentEvent>) {
        for event in events { loadResolved(event) }
    }

    /// Adds one event of a resolved state (see above): no removal is worked out.
    package mutating func loadResolved(_ incoming: DocumentEvent) {
        let dot = incoming.dot
        if let wasRemoved = isRemoved(at: dot) {
            // Held already: only a removed form has anything to say.
            if incoming.isRemoved, !wasRemoved { integrate(incoming) }
            return
        }
        if !compacted.isEmpty, compacted.contains(dot) { return }
        insertResolved(incoming)
    }

    /// Whether two states hold the same events, vectors and index (the live set and the removal
    /// facts at every path): what a loaded snapshot must equal. `==` compares the events only.
    package func isIdentical(to other: DocumentState) -> Bool {
        self == other && versionVector == other.versionVector && compacted == other.compacted
            && root == other.root
    }
}

extension PathNode {
    /// Records a stored event at `path[depth...]` below this node: the removal facts it adds on
    /// the way and at its own level, and its place among the live events when it is stored live.
    mutating func recordResolved(_ event: DocumentEvent, depth: Int) {
        guard depth == event.path.count else {
            // A write below a register value makes this path a map (see `DocumentState.place`).
            if event.kind != .removal { descendantWriteRemoval.formUnion(event.context) }
            children[event.path[depth], default: PathNode()].recordResolved(event, depth: depth + 1)
            return
        }
        if !event.isRemoved { live.append(event.dot) }
        switch event.kind {
        case .value, .removal: subtreeRemoval.formUnion(event.context)
        case .map: mapRemoval.formUnion(event.context)
        }
    }
}

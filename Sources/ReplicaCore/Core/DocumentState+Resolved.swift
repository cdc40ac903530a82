/// Loading the stored form of a document's resolved state: a snapshot, whose events were written
/// in their current form (live or removed) by a replica that had already worked out every removal,
/// and the log rows after it, each holding the current form (as of its commit) of every event
/// whose stored state the commit changed, the removed forms it made included.
///
/// Integrating an event (`integrate`) checks the removal facts on its path and removes the live
/// events that it covers; for an event of a snapshot both answers are already in its stored form.
/// Loading therefore only records the event, its place in the live set when it is stored live,
/// and the removal facts it contributes to each level of its path (which later events still need).
/// One event can come several times (a snapshot part and a later log row, a block as it came and
/// its removed form beside it): a form only ever moves from live to removed, so the removed form
/// wins, as in `integrate`, and the order the rows are read in does not matter.
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
            && root.hasSameIndex(as: other.root)
    }
}

extension PathNode {
    /// Records a stored event at `path[depth...]` below this node: the removal facts it adds on
    /// the way and at its own level, and its place among the live events when it is stored live.
    mutating func recordResolved(_ event: DocumentEvent, depth: Int) {
        guard depth == event.path.count else {
            // A write below a register value makes this path a map (see `DocumentState.place`).
            withChild(event.path[depth], recordingWriteBelow: event.kind != .removal ? event.context : nil) {
                $0.recordResolved(event, depth: depth + 1)
            }
            return
        }
        if !event.isRemoved { addLive(event.dot) }
        switch event.kind {
        case .value, .removal: recordSubtreeRemoval(event.context)
        case .map: recordMapRemoval(event.context)
        }
    }
}

extension PathNode {
    /// The same live events (in any order: the order they arrived in), removal facts and paths
    /// at this node and below.
    func hasSameIndex(as other: PathNode) -> Bool {
        guard subtreeRemoval == other.subtreeRemoval, mapRemoval == other.mapRemoval,
            descendantWriteRemoval == other.descendantWriteRemoval, liveCount == other.liveCount
        else { return false }
        if liveCount > 1 {
            var mine: [Dot] = []
            var theirs: [Dot] = []
            forEachLive { mine.append($0) }
            other.forEachLive { theirs.append($0) }
            guard mine.sorted() == theirs.sorted() else { return false }
        } else if firstLive != other.firstLive {
            return false
        }
        let children = children
        let otherChildren = other.children
        guard children.count == otherChildren.count else { return false }
        return children.allSatisfy { key, child in otherChildren[key].map(child.hasSameIndex) ?? false }
    }
}

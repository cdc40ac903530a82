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
    package init(resolved events: consuming [DocumentEvent]) {
        loadResolved(contentsOf: events)
    }

    /// Adds the events of a resolved state (see above): no removal is worked out. An event held
    /// already has something to say only in a removed form of an event held live.
    ///
    /// The new events are recorded on their paths together, then moved into the store (taken out
    /// of `events`: a copy of an event retains its path, its context and its value, and the
    /// array released them again, about a seventh of a reopen's samples at 100,000 strokes). A
    /// run of events under one map (a stored record lists a drawing's strokes one after another)
    /// walks to the map once, records what the run writes below it once at each level above, and
    /// makes room among the map's children for the run at once, where one event at a time hashed
    /// the levels above for each event and grew the children's table by doubling (a sixth of a
    /// reopen's instructions).
    package mutating func loadResolved(contentsOf events: consuming [DocumentEvent]) {
        var events = events
        // Where the new events not yet recorded nor stored are (positions, not copies).
        var fresh: [Int] = []
        fresh.reserveCapacity(events.count)
        for index in events.indices {
            let dot = events[index].dot
            let held = versionVector[dot.peer]
            if dot.counter <= held {
                // It may be held, or be among the fresh ones (a record can hold an event's live
                // form and, after it, its removed form): those go in first, so the store answers.
                putAway(&events, at: fresh)
                fresh.removeAll(keepingCapacity: true)
                if let wasRemoved = isRemoved(at: dot) {
                    if events[index].isRemoved, !wasRemoved { integrate(events[index].take()) }
                    continue
                }
            }
            if !compacted.isEmpty, compacted.contains(dot) { continue }
            countResolved(dot)
            fresh.append(index)
        }
        putAway(&events, at: fresh)
    }

    /// Records the new events at these positions on their paths, then moves them into the store.
    private mutating func putAway(_ events: inout [DocumentEvent], at positions: [Int]) {
        guard !positions.isEmpty else { return }
        recordResolved(events, at: positions)
        for index in positions { storeResolved(events[index].take()) }
    }

    /// Records the stored events at these positions on their paths (see
    /// `PathNode.recordResolved`), runs of events under one map together.
    private mutating func recordResolved(_ events: [DocumentEvent], at positions: [Int]) {
        var start = positions.startIndex
        while start < positions.endIndex {
            let path = events[positions[start]].path
            var end = start + 1
            if !path.isEmpty {
                while end < positions.endIndex, Self.haveOneParent(events[positions[end]].path, path) {
                    end += 1
                }
            }
            if end - start == 1 {
                root.recordResolved(events[positions[start]], depth: 0)
            } else {
                root.recordResolvedRun(events, at: positions[start..<end], depth: 0)
            }
            start = end
        }
    }

    /// Whether two paths of one length end under the same map.
    static func haveOneParent(_ lhs: [String], _ rhs: [String]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in 0..<(lhs.count - 1) where lhs[index] != rhs[index] { return false }
        return true
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
        recordResolvedHere(event.dot, isRemoved: event.isRemoved, kind: event.kind, context: event.context)
    }

    /// What a stored event records at its own node: its place among the live events when it is
    /// stored live, and the removal facts it adds. (Its fields, not the event: a copy of an event
    /// retains its path and value as well.)
    private mutating func recordResolvedHere(
        _ dot: Dot, isRemoved: Bool, kind: DocumentEvent.Kind, context: VersionVector
    ) {
        if !isRemoved { addLive(dot) }
        switch kind {
        case .value, .removal: recordSubtreeRemoval(context)
        case .map: recordMapRemoval(context)
        }
    }

    /// `recordResolved` of each event at `positions` in `events` (two or more, all at paths of
    /// one length, which is more than `depth`, under one map) in one walk: what they write below
    /// is recorded once at each level above their own (the union of their contexts, the same
    /// facts as one at a time), and the map's children get room for all of them before the first
    /// is added.
    mutating func recordResolvedRun(_ events: [DocumentEvent], at positions: ArraySlice<Int>, depth: Int) {
        let path = events[positions[positions.startIndex]].path
        var writesBelow = VersionVector.empty
        for position in positions where events[position].kind != .removal {
            writesBelow.formUnion(events[position].context)
        }
        guard depth == path.count - 1 else {
            withChild(path[depth], recordingWriteBelow: writesBelow) {
                $0.recordResolvedRun(events, at: positions, depth: depth + 1)
            }
            return
        }
        recordDescendantWriteRemoval(writesBelow)
        withChildren(reservingRoomFor: positions.count) { children in
            for position in positions {
                children.withValue(forKey: events[position].path[depth]) {
                    $0.recordResolvedHere(
                        events[position].dot, isRemoved: events[position].isRemoved,
                        kind: events[position].kind, context: events[position].context)
                }
            }
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

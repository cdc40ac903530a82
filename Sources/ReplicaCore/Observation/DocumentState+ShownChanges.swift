/// Which of a commit's changed events change what their path shows.
///
/// A commit changes events in two ways: it adds them (a local write, a peer's event) and it marks
/// held ones removed. What a path shows is decided by the winner among its live events
/// (`DocumentEvent.winsOver`), so a path shows something else after the commit only when its
/// winner changed to one that shows something else. The events the commit left alone at a path
/// were live before it and are live after it; the ones it added are live now or were removed on
/// arrival; the ones it removed were live before. So the winner before the commit is the best of
/// the untouched live events and of the removed changed ones, and the winner now is the best of
/// every live one, both found from the events as they are now.
///
/// A changed event that is removed now may have been added by this same commit (it never showed)
/// or held before it (it may have been the winner): that is not told apart, and such an event
/// counts as a change whenever it could have been the winner before. So a path is left out only
/// when its winner before and now are the same or show the same: an event that lost to the one
/// already there, a map marker arriving where a map marker already wins, a value equal to the one
/// that won; a path may still be told that shows no change.
extension DocumentState {
    /// What tells a path: its winner now (once per path), or a removed event that may have won
    /// before (several may tell one path).
    enum Teller {
        case winner
        case removed
    }

    /// Whether the commit whose changed dots are `changed` (sorted, each once) may have changed
    /// what the path of its changed event `dot` shows, `node` being the node of that path (nil
    /// when there is none): nil when it did not (or the document does not hold `dot`), else what
    /// tells it.
    func shownChange(at dot: Dot, node: PathNode?, changed: UnsafeBufferPointer<Dot>) -> Teller? {
        guard let (removed, timestamp) = store.removedAndTimestamp(at: dot) else { return nil }
        guard let node else { return removed ? .removed : .winner }
        // The best live event of all (the winner now) first: an added event that lost, the
        // usual case of a peer's writes of what this replica wrote later, is told apart by it
        // alone, without asking which live events the commit left alone.
        var winner: Ranked?
        node.forEachLive { live in
            guard let liveTimestamp = store.timestamp(at: live) else { return }
            let candidate = Ranked(timestamp: liveTimestamp, dot: live)
            if winner.map({ candidate.wins(over: $0) }) ?? true { winner = candidate }
        }
        if !removed, winner?.dot != dot { return nil }
        // The best live event the commit left alone: the winner before, unless a removed
        // changed event beat it.
        var kept: Ranked?
        node.forEachLive { live in
            guard !Self.holds(changed, live), let liveTimestamp = store.timestamp(at: live) else { return }
            let candidate = Ranked(timestamp: liveTimestamp, dot: live)
            if kept.map({ candidate.wins(over: $0) }) ?? true { kept = candidate }
        }
        // A winner that is not the best untouched event was added by this commit.
        var winnerTells = false
        if let winner, winner.dot != kept?.dot {
            winnerTells = kept.map { !showsTheSame($0.dot, winner.dot) } ?? true
        }
        guard removed else { return winnerTells ? .winner : nil }
        // The path's winner now already tells of it, or this event could not have won before.
        if winnerTells { return nil }
        if let kept, !Ranked(timestamp: timestamp, dot: dot).wins(over: kept) { return nil }
        return .removed
    }

    /// Whether two held events, each as the winner of a path, make it show the same (the rule of
    /// `show`: a register's value, or a map).
    private func showsTheSame(_ lhs: Dot, _ rhs: Dot) -> Bool {
        guard let left = store.kindAndValue(at: lhs), let right = store.kindAndValue(at: rhs) else {
            return false
        }
        switch (left.kind == .value ? left.value : nil, right.kind == .value ? right.value : nil) {
        case (nil, nil): return true
        case (let leftValue?, let rightValue?): return leftValue == rightValue
        default: return false
        }
    }

    /// Whether `dots` (sorted) holds `dot`: a binary search, since a commit may change thousands.
    private static func holds(_ dots: UnsafeBufferPointer<Dot>, _ dot: Dot) -> Bool {
        var low = 0
        var high = dots.count
        while low < high {
            let middle = (low + high) / 2
            if dots[middle] < dot { low = middle + 1 } else { high = middle }
        }
        return low < dots.count && dots[low] == dot
    }
}

/// A live event's place in the last-write-wins order (`DocumentEvent.winsOver`), without the event.
private struct Ranked {
    var timestamp: HybridTimestamp
    var dot: Dot

    func wins(over other: Ranked) -> Bool {
        (timestamp, dot.peer, dot.counter) > (other.timestamp, other.dot.peer, other.dot.counter)
    }
}

/// A path at which a commit may have changed what a document shows, with the node there (nil
/// when there is none), looked up once for both the check and the patch.
package struct ShownPath {
    package var path: [String]
    var node: PathNode?
}

extension ReplicaState {
    /// The paths at which an unsaved document may show something else than before the commit
    /// (see `DocumentState.shownChange`), each once, in the order of the changed dots: what a
    /// document observer is told. The paths of events that lost, and of a map marker arriving
    /// where a map already shows, are left out.
    ///
    /// Mutating in form only: the document is read where it lies (`readInPlace`).
    package mutating func shownChangedPaths(of unsaved: UnsavedDocument) -> [ShownPath] {
        readInPlace(unsaved.key) { Self.shownChangedPaths(of: unsaved.dots, in: $0) } ?? []
    }

    private static func shownChangedPaths(of changed: [Dot], in document: borrowing DocumentState)
        -> [ShownPath]
    {
        var paths: [ShownPath] = []
        // Only paths told by removed events can come twice (a path's winner tells it once, and
        // then no removed event does), so only those are remembered.
        var toldByRemoved: Set<[String]> = []
        // The children of the map above the last path (`abovePath` is a path under it): a peer's
        // thousands of strokes share one map, whose table is taken once, so each stroke's node is
        // one lookup in it. Looked up through the map's node instead, each lookup copied the node
        // and the table out of it (four retains and four releases a stroke); and the paths are
        // compared in place, where a slice of each path was one more.
        var abovePath: [String]?
        var aboveChildren: ChildTable?
        // The dots through their buffer: every check searches them, and passing the array
        // retained and released it each time.
        changed.withUnsafeBufferPointer { dots in
            for dot in dots {
                guard let path = document.path(at: dot) else { continue }
                let node: PathNode?
                if let last = path.last {
                    if abovePath.map({ !DocumentState.haveOneParent(path, $0) }) ?? true {
                        abovePath = path
                        aboveChildren = document.root[path.dropLast()]?.children
                    }
                    node = aboveChildren?[last]
                } else {
                    node = document.root
                }
                guard let teller = document.shownChange(at: dot, node: node, changed: dots) else { continue }
                if teller == .removed, !toldByRemoved.insert(path).inserted { continue }
                paths.append(ShownPath(path: path, node: node))
            }
        }
        return paths
    }
}

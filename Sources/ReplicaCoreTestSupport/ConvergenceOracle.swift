import ReplicaCore

/// An independent statement of the removal rule, computed from scratch on a final set of events:
/// an event is removed exactly when some event whose context contains it covers its path. The
/// store computes the same thing incrementally as events arrive in any order; comparing the two
/// finds both a write that was lost and a removal that should not have happened.
public enum ConvergenceOracle {
    public static func mismatches(in document: DocumentState) -> [Dot] {
        let events = Array(document.events.values)
        let removed = removedDots(in: events)
        return events.filter { removed.contains($0.dot) != $0.isRemoved }.map(\.dot)
    }

    /// The dots of `events` that the rule removes, given exactly these events.
    public static func removedDots(in events: some Collection<DocumentEvent>) -> Set<Dot> {
        var subtree: [[String]: VersionVector] = [:]  // value writes and removals at the path
        var maps: [[String]: VersionVector] = [:]  // map markers at the path
        var below: [[String]: VersionVector] = [:]  // writes strictly below the path
        for event in events {
            switch event.kind {
            case .value, .removal: subtree[event.path, default: VersionVector()].formUnion(event.context)
            case .map: maps[event.path, default: VersionVector()].formUnion(event.context)
            }
            if event.kind != .removal {
                for depth in 0..<event.path.count {
                    below[Array(event.path.prefix(depth)), default: VersionVector()].formUnion(event.context)
                }
            }
        }
        var removed: Set<Dot> = []
        for event in events {
            var isRemoved = event.kind == .removal
            for depth in 0...event.path.count
            where subtree[Array(event.path.prefix(depth))]?.contains(event.dot) == true {
                isRemoved = true
            }
            if event.kind == .value
                && (maps[event.path]?.contains(event.dot) == true
                    || below[event.path]?.contains(event.dot) == true)
            {
                isRemoved = true
            }
            if isRemoved { removed.insert(event.dot) }
        }
        return removed
    }
}

import ReplicaCore

/// What add-wins and last-writer-wins say a document shows, worked out from scratch from every
/// event ever written to it (nothing compacted, nothing merged incrementally): the removal rule
/// of `ConvergenceOracle` on the whole history, then at each path the live events there, the
/// latest of which wins (a register value hides what is below it; a map marker, or anything live
/// below, makes a map). A replica that compacted, adopted whole states or reopened must show
/// exactly this: a key written and not causally removed is there with its winning value.
public struct AddWinsModel {
    private var events: [DocumentKey: [Dot: DocumentEvent]] = [:]

    public init() {}

    /// Records the events of a delta (the new writes of a local commit, as they were written).
    public mutating func record(_ delta: ReplicaDelta) {
        for document in delta.documents {
            let key = DocumentKey(collection: delta.collection, id: document.documentID)
            for event in document.events where events[key]?[event.dot] == nil {
                events[key, default: [:]][event.dot] = event
            }
        }
    }

    /// How many events were recorded for every document together.
    public var eventCount: Int { events.values.reduce(0) { $0 + $1.count } }

    /// The fields the document shows (without `_id`), or nil when it does not exist.
    public func fields(of key: DocumentKey) -> [String: DocumentValue]? {
        guard let all = events[key]?.values else { return nil }
        let removed = ConvergenceOracle.removedDots(in: all)
        let live = all.filter { $0.kind != .removal && !removed.contains($0.dot) }
        guard case .object(var fields)? = render([], live: live) else { return nil }
        fields["_id"] = nil
        return fields
    }

    private func render(_ path: [String], live: [DocumentEvent]) -> DocumentValue? {
        let here = live.filter { $0.path == path }
        let winner = here.max { a, b in
            (a.timestamp, a.dot.peer, a.dot.counter) < (b.timestamp, b.dot.peer, b.dot.counter)
        }
        if let winner, winner.kind == .value { return winner.value }
        let below = live.filter { $0.path.count > path.count && Array($0.path.prefix(path.count)) == path }
        if winner == nil && below.isEmpty { return nil }
        var entries: [String: DocumentValue] = [:]
        for component in Set(below.map { $0.path[path.count] }) {
            entries[component] = render(path + [component], live: below)
        }
        return .object(entries)
    }
}

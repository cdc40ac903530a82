/// One document as a CRDT: the set of its events, indexed by path.
///
/// An event is removed when some other event whose context contains it says so (see
/// `DocumentEvent.Kind`). That relation depends only on which events are present, so two replicas
/// holding the same events hold the same document, whatever order the events came in. The visible
/// document is computed from the live events: at each path the last writer wins among the live
/// events there; a map marker, or live events below, make the path a map (add-wins).
public struct DocumentState: Sendable, Equatable {
    /// Every event of the document, live or removed, by dot.
    public private(set) var events: [Dot: DocumentEvent] = [:]
    /// The writes this document has seen; contiguous per peer because writes are applied in order.
    public private(set) var versionVector = VersionVector()
    /// Every dot at or below it that `events` lacks was dropped by `compact(stable:)`.
    public private(set) var compacted = VersionVector()
    var root = PathNode()

    public init() {}

    /// A document holding these events; the order does not matter.
    public init(events: some Sequence<DocumentEvent>) {
        for event in events { integrate(event) }
    }

    /// Two states are the same document when they hold the same events; the index follows.
    public static func == (lhs: DocumentState, rhs: DocumentState) -> Bool {
        lhs.events == rhs.events
    }

    /// Whether the document exists for readers: something in it is live.
    public var isVisible: Bool { root.hasLiveEvents }

    /// The join of two states: every event of both, removed wherever either side removed it.
    public func merged(with other: DocumentState) -> DocumentState {
        var result = self
        for event in other.events.values.sorted(by: { $0.dot < $1.dot }) {
            result.integrate(event)
        }
        return result
    }

    /// The events that `since` does not cover, in dot order.
    public func changes(since: VersionVector) -> [DocumentEvent] {
        // Counters are contiguous per peer, so the missing events are found by counting up.
        var result: [DocumentEvent] = []
        for (peer, latest) in versionVector.sortedEntries where latest > since[peer] {
            for counter in (since[peer] + 1)...latest {
                if let event = events[Dot(peer: peer, counter: counter)] { result.append(event) }
            }
        }
        return result
    }

    /// Adds one event (or the news that a known event was removed elsewhere) and returns the dots
    /// whose stored state changed: the event itself and any event it removed.
    @discardableResult
    mutating func integrate(_ incoming: DocumentEvent) -> [Dot] {
        if compacted.contains(incoming.dot), events[incoming.dot] == nil { return [] }  // dropped: stays so
        if let existing = events[incoming.dot] {
            guard incoming.isRemoved, !existing.isRemoved else { return [] }
            var touched: [Dot] = []
            remove(incoming.dot, touched: &touched)
            return touched
        }
        var event = incoming
        if !event.isRemoved && isRemovedByKnownEvents(event) {
            event = event.removed
        }
        events[event.dot] = event
        if event.dot.counter > versionVector[event.dot.peer] {
            versionVector[event.dot.peer] = event.dot.counter
        }
        root.withNode(at: event.path[...]) { node in
            if !event.isRemoved { node.live.insert(event.dot) }
        }
        var touched = [event.dot]
        applyRemovals(of: event, touched: &touched)
        return touched
    }

    /// Whether removal facts already recorded (by events that saw this one) remove it.
    private func isRemovedByKnownEvents(_ event: DocumentEvent) -> Bool {
        var node: PathNode? = root
        for depth in 0...event.path.count {
            guard let current = node else { return false }
            if current.subtreeRemoval.contains(event.dot) { return true }
            if depth == event.path.count {
                return event.kind == .value
                    && (current.mapRemoval.contains(event.dot)
                        || current.descendantWriteRemoval.contains(event.dot))
            }
            node = current.children[event.path[depth]]
        }
        return false
    }

    /// Records what `event` removes, and removes the live events it covers.
    private mutating func applyRemovals(of event: DocumentEvent, touched: inout [Dot]) {
        let context = event.context
        let path = event.path[...]
        switch event.kind {
        case .value, .removal:
            root.withNode(at: path) { $0.subtreeRemoval.formUnion(context) }
            var dots: [Dot] = []
            root[path]?.liveDots(into: &dots)
            for dot in dots where context.contains(dot) { remove(dot, touched: &touched) }
        case .map:
            root.withNode(at: path) { $0.mapRemoval.formUnion(context) }
            removeLiveValues(at: path, coveredBy: context, touched: &touched)
        }
        guard event.kind != .removal else { return }
        // A write below a register value turns that path into a map: the value it saw goes.
        for depth in 0..<path.count {
            let ancestor = path.prefix(depth)
            root.withNode(at: ancestor) { $0.descendantWriteRemoval.formUnion(context) }
            removeLiveValues(at: ancestor, coveredBy: context, touched: &touched)
        }
    }

    private mutating func removeLiveValues(
        at path: ArraySlice<String>, coveredBy context: VersionVector, touched: inout [Dot]
    ) {
        guard let live = root[path]?.live else { return }
        for dot in live where context.contains(dot) && events[dot]?.kind == .value {
            remove(dot, touched: &touched)
        }
    }

    /// Forgets a removed event (see `compact(stable:)`); removed events are in no live set.
    mutating func dropEvent(_ dot: Dot) {
        events[dot] = nil
    }

    /// Records that every dot `stable` covers and `events` lacks was dropped; the version vector
    /// covers them too (a reload rebuilds it from the events held, which may lack the last).
    mutating func markCompacted(_ stable: VersionVector) {
        compacted.formUnion(stable)
        versionVector.formUnion(stable)
    }

    private mutating func remove(_ dot: Dot, touched: inout [Dot]) {
        guard let event = events[dot], !event.isRemoved else { return }
        events[dot] = event.removed
        root.withNode(at: event.path[...]) { _ = $0.live.remove(dot) }
        touched.append(dot)
    }
}

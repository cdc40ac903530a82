/// One document as a CRDT: the set of its events, indexed by path.
///
/// An event is removed when some other event whose context contains it says so (see
/// `DocumentEvent.Kind`). That relation depends only on which events are present, so two replicas
/// holding the same events hold the same document, whatever order the events came in. The visible
/// document is computed from the live events: at each path the last writer wins among the live
/// events there; a map marker, or live events below, make the path a map (add-wins).
public struct DocumentState: Sendable, Equatable {
    /// Every event of the document, live or removed, dense by peer and counter.
    private(set) var store = EventStore()
    /// The writes this document has seen; contiguous per peer because writes are applied in order.
    public private(set) var versionVector = VersionVector()
    /// Every dot at or below it that the document lacks was dropped by `compact(stable:)`.
    public private(set) var compacted = VersionVector()
    var root = PathNode()

    public init() {}

    /// A document holding these events; the order does not matter.
    public init(events: some Sequence<DocumentEvent>) {
        var touched: [Dot] = []
        for event in events {
            integrate(event, touched: &touched)
            touched.removeAll(keepingCapacity: true)
        }
    }

    /// Every event by dot, as a dictionary built on each call (for tests and tools; the replica
    /// itself uses `event(at:)`, `eventCount` and `forEachEvent`).
    public var events: [Dot: DocumentEvent] {
        var result: [Dot: DocumentEvent] = [:]
        result.reserveCapacity(store.count)
        store.forEachInDotOrder { result[$0.dot] = $0 }
        return result
    }

    /// The event with this dot, live or removed, if the document holds it.
    public func event(at dot: Dot) -> DocumentEvent? { store[dot] }

    /// How many events the document holds, live or removed.
    public var eventCount: Int { store.count }

    /// Every event in dot order.
    public func forEachEvent(_ body: (DocumentEvent) throws -> Void) rethrows {
        try store.forEachInDotOrder(body)
    }

    /// Every dot held, in order.
    public var dots: [Dot] {
        var result: [Dot] = []
        result.reserveCapacity(store.count)
        store.forEachInDotOrder { result.append($0.dot) }
        return result
    }

    /// Two states are the same document when they hold the same events; the index follows.
    public static func == (lhs: DocumentState, rhs: DocumentState) -> Bool {
        guard lhs.store.count == rhs.store.count else { return false }
        var same = true
        lhs.store.forEachInDotOrder { event in
            if same, rhs.store[event.dot] != event { same = false }
        }
        return same
    }

    /// Whether the document exists for readers: something in it is live.
    public var isVisible: Bool { root.hasLiveEvents }

    /// The join of two states: every event of both, removed wherever either side removed it.
    public func merged(with other: DocumentState) -> DocumentState {
        var result = self
        var touched: [Dot] = []
        other.store.forEachInDotOrder { event in
            result.integrate(event, touched: &touched)
            touched.removeAll(keepingCapacity: true)
        }
        return result
    }

    /// The events that `since` does not cover, in dot order.
    public func changes(since: VersionVector) -> [DocumentEvent] {
        // Counters are contiguous per peer, so the missing events are found by counting up.
        var result: [DocumentEvent] = []
        for entry in versionVector.entries where entry.counter > since[entry.peer] {
            store.forEach(of: entry.peer, in: (since[entry.peer] + 1)...entry.counter) { result.append($0) }
        }
        return result
    }

    /// Makes room for `events` (a delta's, in dot order) in the event store: one reservation per
    /// peer's run instead of the arrays growing while they are integrated.
    mutating func reserve(for events: [DocumentEvent]) {
        var index = events.startIndex
        while index < events.endIndex {
            let peer = events[index].dot.peer
            var highest = events[index].dot.counter
            index += 1
            while index < events.endIndex, events[index].dot.peer == peer {
                highest = max(highest, events[index].dot.counter)
                index += 1
            }
            store.reserve(peer: peer, through: highest)
        }
    }

    /// Whether a held event is removed (nil when it is not held), without copying it.
    func isRemoved(at dot: Dot) -> Bool? { store.isRemoved(at: dot) }

    /// The path of a held event (nil when it is not held), without copying the event.
    package func path(at dot: Dot) -> [String]? { store.path(at: dot) }

    /// Adds one event (or the news that a known event was removed elsewhere) and returns the dots
    /// whose stored state changed: the event itself and any event it removed.
    @discardableResult
    mutating func integrate(_ incoming: DocumentEvent) -> [Dot] {
        var touched: [Dot] = []
        integrate(incoming, touched: &touched)
        return touched
    }

    /// `integrate(_:)`, appending the dots whose stored state changed to `touched`. The event is
    /// taken: it is placed on its path first and then goes into the store as it is (removed if
    /// the facts on its path remove it), so a caller that hands over its own copy pays for none.
    mutating func integrate(_ incoming: consuming DocumentEvent, touched: inout [Dot]) {
        let dot = incoming.dot
        if let existingRemoved = store.isRemoved(at: dot) {
            guard incoming.isRemoved, !existingRemoved else { return }
            remove(dot, touched: &touched)
            return
        }
        if !compacted.isEmpty, compacted.contains(dot) { return }  // dropped: stays so
        // A run of one: the same walk as a delta's runs (`integrate(taking:touched:)`).
        withUnsafeMutablePointer(to: &incoming) { event in
            integrateRun(UnsafeMutableBufferPointer(start: event, count: 1), touched: &touched)
        }
    }

    /// Integrates `events` in order, taking each (`DocumentEvent.take`), and appends the dots
    /// whose stored state changed to `touched`: a delta's events a run at a time. A peer's
    /// strokes arrive as thousands of events one after another under one map (`strokes`); taken
    /// one at a time, each walked from the root to that map again, recording its context in the
    /// removal by a write below at every level and looking for register values it removes there.
    ///
    /// For a run of new events that share the parent of their paths, the levels above their
    /// nodes are walked once. What the run does there is what its events do one after another:
    /// whether the facts of a level remove an event depends on facts no event of the run records
    /// there (they record at their own nodes, below); the live values a write removes at a level
    /// are those its context covers, so the run removes those the union of its writes' contexts
    /// covers; and the removal by a write below grows by each context, that is by their union.
    /// Each event is then placed at its own node in order, as `integrate` does, and stored.
    mutating func integrate(taking events: UnsafeMutableBufferPointer<DocumentEvent>, touched: inout [Dot]) {
        var start = events.startIndex
        while start < events.endIndex {
            var end = start + 1
            if isNewInRun(events[start]) {
                while end < events.endIndex, isNewInRun(events[end]),
                    Self.haveOneParent(events[end].path, events[start].path)
                {
                    end += 1
                }
            }
            if end - start > 1 {
                integrateRun(UnsafeMutableBufferPointer(rebasing: events[start..<end]), touched: &touched)
            } else {
                integrate(events[start].take(), touched: &touched)
            }
            start = end
        }
    }

    /// Whether `event` may be part of a run: not held and not compacted away (so it is placed,
    /// not merged with a form held), and below the root.
    private func isNewInRun(_ event: DocumentEvent) -> Bool {
        !event.path.isEmpty && store.isRemoved(at: event.dot) == nil
            && (compacted.isEmpty || !compacted.contains(event.dot))
    }

    /// A run of new events whose paths share their parent (see above), or one new event.
    private mutating func integrateRun(
        _ events: UnsafeMutableBufferPointer<DocumentEvent>, touched: inout [Dot]
    ) {
        var writesBelow = VersionVector.empty
        for index in events.indices {
            let dot = events[index].dot
            if dot.counter > versionVector[dot.peer] { versionVector[dot.peer] = dot.counter }
            touched.append(dot)
            if events[index].kind != .removal { writesBelow.formUnion(events[index].context) }
        }
        let levels = events[events.startIndex].path.count - 1
        guard levels >= 0 else {
            // The document itself (only ever a run of one): its own node is the root.
            Self.placeAndStore(
                events, at: events.startIndex, removedAbove: false, node: &root, store: &store,
                touched: &touched)
            return
        }
        withUnsafeTemporaryAllocation(of: Bool.self, capacity: events.count) { removedAbove in
            removedAbove.initialize(repeating: false)
            Self.placeRun(
                events, levels: levels, depth: 0, writesBelow: writesBelow, removedAbove: removedAbove,
                node: &root,
                store: &store, touched: &touched)
        }
    }

    /// One level above the run's nodes (`depth` components of the first event's path down, of
    /// `levels` above the nodes), then the next, and at the parent each event at its own node.
    private static func placeRun(
        _ events: UnsafeMutableBufferPointer<DocumentEvent>, levels: Int, depth: Int,
        writesBelow: VersionVector,
        removedAbove: UnsafeMutableBufferPointer<Bool>, node: inout PathNode, store: inout EventStore,
        touched: inout [Dot]
    ) {
        for (position, index) in events.indices.enumerated()
        where !removedAbove[position] && !events[index].isRemoved
            && node.subtreeRemoval.contains(events[index].dot)
        {
            removedAbove[position] = true
        }
        // A write below a register value turns this path into a map: the values the writes saw go.
        if !writesBelow.isEmpty {
            removeLiveValues(in: &node, coveredBy: writesBelow, store: &store, touched: &touched)
        }
        let recording = writesBelow.isEmpty ? nil : writesBelow
        if depth < levels {
            // The first event's path names the levels above: no event is taken before the walk is below them.
            node.withChild(events[events.startIndex].path[depth], recordingWriteBelow: recording) { child in
                placeRun(
                    events, levels: levels, depth: depth + 1, writesBelow: writesBelow,
                    removedAbove: removedAbove,
                    node: &child, store: &store, touched: &touched)
            }
            return
        }
        if let recording { node.recordDescendantWriteRemoval(recording) }
        for (position, index) in events.indices.enumerated() {
            node.withChild(events[index].path[depth]) { child in
                placeAndStore(
                    events, at: index, removedAbove: removedAbove[position], node: &child, store: &store,
                    touched: &touched)
            }
        }
    }

    /// Takes `events[index]`, places it at its own node (`node`; `removedAbove`: facts above it
    /// remove it) and stores it, removed when the facts remove it. Taken here, where nothing
    /// else holds it, the store takes it as it is: taken by the caller and placed inside the
    /// caller's closure, it was copied into the store and the original released (three retains
    /// and three releases an event).
    private static func placeAndStore(
        _ events: UnsafeMutableBufferPointer<DocumentEvent>, at index: Int, removedAbove: Bool,
        node: inout PathNode, store: inout EventStore, touched: inout [Dot]
    ) {
        let event = events[index].take()
        let removed = removedAbove || (!event.isRemoved && node.subtreeRemoval.contains(event.dot))
        var removedOnArrival = false
        placeAtOwnNode(
            event, removed: removed, node: &node, store: &store, touched: &touched,
            removedOnArrival: &removedOnArrival)
        var stored = consume event
        if removedOnArrival { stored.markRemoved() }
        store.insert(consume stored)
    }

    /// Counts the dot of a stored event being loaded in the version vector; the event goes into
    /// the store after it is recorded on its path (`storeResolved`, `loadResolved`).
    mutating func countResolved(_ dot: Dot) {
        if dot.counter > versionVector[dot.peer] { versionVector[dot.peer] = dot.counter }
    }

    /// A stored event being loaded, moved into the store once recorded on its path.
    mutating func storeResolved(_ event: consuming DocumentEvent) {
        store.insert(event)
    }

    /// An event's placement at its own node: whether facts already recorded remove it (`removed`
    /// says whether those above or here do; checked before its own are recorded), the removal
    /// facts it records, the live events it removes here and below, and its place in the live
    /// set. The event is not in the store yet: `removedOnArrival` says whether it goes in removed.
    static func placeAtOwnNode(
        _ event: DocumentEvent, removed: Bool, node: inout PathNode, store: inout EventStore,
        touched: inout [Dot],
        removedOnArrival: inout Bool
    ) {
        let context = event.context
        let removedHere =
            removed
            || (!event.isRemoved && event.kind == .value
                && (node.mapRemoval.contains(event.dot) || node.descendantWriteRemoval.contains(event.dot)))
        if removedHere { removedOnArrival = true }
        let joinsLive = !removedHere && !event.isRemoved
        // The event joins its node's live events after the ones its context removes are gone, so
        // a register's node that one write replaces another at keeps its one live event inline
        // (see `PathNode`); the live events and the dots touched come out as if it had joined
        // first and been checked last, as before.
        switch event.kind {
        case .value, .removal:
            node.recordSubtreeRemoval(context)
            removeLiveEvents(at: &node, coveredBy: context, store: &store, touched: &touched)
            if joinsLive {
                if context.contains(event.dot) {
                    // Only hand-made input names its own dot in its context: removed at once.
                    removedOnArrival = true
                    touched.append(event.dot)
                } else {
                    node.addLive(event.dot)
                }
            }
            node.forEachChild { child in
                removeLiveEvents(inSubtree: &child, coveredBy: context, store: &store, touched: &touched)
            }
        case .map:
            node.recordMapRemoval(context)
            // A map marker is no register value: the removal never takes the marker itself.
            removeLiveValues(in: &node, coveredBy: context, store: &store, touched: &touched)
            if joinsLive { node.addLive(event.dot) }
        }
    }

    /// Removes every live event at and below `node` that `context` covers.
    private static func removeLiveEvents(
        inSubtree node: inout PathNode, coveredBy context: VersionVector, store: inout EventStore,
        touched: inout [Dot]
    ) {
        removeLiveEvents(at: &node, coveredBy: context, store: &store, touched: &touched)
        node.forEachChild { child in
            removeLiveEvents(inSubtree: &child, coveredBy: context, store: &store, touched: &touched)
        }
    }

    /// Removes the live events at exactly `node` that `context` covers.
    private static func removeLiveEvents(
        at node: inout PathNode, coveredBy context: VersionVector, store: inout EventStore,
        touched: inout [Dot]
    ) {
        node.removeLive { dot in
            guard context.contains(dot) else { return false }
            if store.markRemoved(dot) { touched.append(dot) }
            return true
        }
    }

    /// Removes the live register values at `node` that `context` covers.
    static func removeLiveValues(
        in node: inout PathNode, coveredBy context: VersionVector, store: inout EventStore,
        touched: inout [Dot]
    ) {
        node.removeLive { dot in
            guard context.contains(dot), store.kind(at: dot) == .value else { return false }
            if store.markRemoved(dot) { touched.append(dot) }
            return true
        }
    }

    /// Forgets a removed event (see `compact(stable:)`); removed events are in no live set.
    mutating func dropEvent(_ dot: Dot) {
        store.drop(dot)
    }

    /// Records that every dot `stable` covers and `events` lacks was dropped; the version vector
    /// covers them too (a reload rebuilds it from the events held, which may lack the last).
    mutating func markCompacted(_ stable: VersionVector) {
        compacted.formUnion(stable)
        versionVector.formUnion(stable)
    }

    private mutating func remove(_ dot: Dot, touched: inout [Dot]) {
        guard let event = store[dot], !event.isRemoved else { return }
        store.markRemoved(dot)
        root.withNode(at: event.path[...]) { node in node.removeLive { $0 == dot } }
        touched.append(dot)
    }
}

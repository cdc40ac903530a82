/// What a path shows to readers, without building the subtree below it.
enum VisibleNode: Equatable {
    case absent
    case map
    case value(DocumentValue)
}

/// What the levels above an entry show (`DocumentState.mapNode(above:)`).
enum MapAbove {
    /// Every level above shows a map; the node of the one holding the entry.
    case map(PathNode)
    /// The first level below the root (a count of components) that shows no map.
    case notShowingMap(depth: Int)
}

extension DocumentState {
    /// The fields of the document as readers see it (without `_id`), or nil if it does not exist.
    public var fields: [String: DocumentValue]? {
        guard case .object(let fields)? = render(root) else { return nil }
        return fields
    }

    /// Whether `fields` is non-nil, without building them (a projection of two fields must not
    /// render all 10,000 strokes of a drawing just to learn that it exists).
    public var hasFields: Bool {
        let winner = winner(of: root)
        if let winner, winner.kind == .value {
            if case .object? = winner.value { return true }
            return false
        }
        if winner != nil { return true }
        // No map marker at the root (a delete that raced a write below it): some entry shows.
        return root.children.values.contains(where: showsSomething)
    }

    /// The visible value at a path, or nil if nothing is there (or a register value above hides it).
    public func value(at path: [String]) -> DocumentValue? {
        if !path.isEmpty, visibleNode(at: path.dropLast()[...]) != .map { return nil }
        // Called directly: `flatMap(render)` copied the whole document state to make the function.
        guard let node = root[path[...]] else { return nil }
        return render(node)
    }

    /// Calls `body` with each entry of the map `value(at: path)` shows (nothing when it shows
    /// no map), without building the map: each entry's value is rendered and handed over alone.
    public func forEachEntry(ofMapAt path: [String], _ body: (String, DocumentValue) throws -> Void) rethrows
    {
        switch visibleNode(at: path[...]) {
        case .map?:
            guard let node = root[path[...]] else { return }
            for (key, child) in node.children {
                if let value = render(child) { try body(key, value) }
            }
        case .value(.object(let entries))?:
            for (key, value) in entries { try body(key, value) }
        default:
            return
        }
    }

    /// What the path shows: nil when it is hidden under a register value above it.
    func visibleNode(at path: ArraySlice<String>) -> VisibleNode? {
        var node: PathNode? = root
        for depth in 0...path.count {
            guard let current = node else { return .absent }
            let shown = show(current)
            if depth == path.count { return shown }
            switch shown {
            case .value: return nil
            case .absent: return .absent
            case .map: node = current.children[path[path.startIndex + depth]]
            }
        }
        return .absent
    }

    /// What the levels above the entry at `path` show, for a patch of it (see
    /// `ReplicaState.patches`): the node of the map holding the entry when the root and every
    /// level above the entry show a map, else the first level (a count of components, at least
    /// 1) that does not. One walk down the path, where asking `visibleNode` of each level walks
    /// again from the root.
    func mapNode(above path: ArraySlice<String>) -> MapAbove {
        var node = root
        if show(node) != .map { return .notShowingMap(depth: 1) }
        for depth in 1..<path.count {
            guard let child = node.children[path[path.startIndex + depth - 1]], show(child) == .map else {
                return .notShowingMap(depth: depth)
            }
            node = child
        }
        return .map(node)
    }

    /// One walk down `path` for a local write (see `assign(_:author:)`): the first level at or
    /// below `from` (a count of components: 0 is the root) that does not show a map, or, when
    /// every level from there to the one above the entry does, what the entry's own path shows.
    /// The levels above `from` are not looked at: the write made them maps already.
    func firstLevelNotShowingMap(along path: [String], from: Int) -> (level: Int?, shown: VisibleNode) {
        var node: PathNode? = root
        for depth in 0..<path.count {
            guard let current = node else {
                // Nothing is here or below: every level from here on shows nothing.
                let level = max(depth, from)
                return (level < path.count ? level : nil, .absent)
            }
            if depth >= from, show(current) != .map { return (depth, .absent) }
            node = current.children[path[depth]]
        }
        // Called directly: `node.map(show)` copied the whole document state to make the
        // function value (a retain and a release of each of its tables, on every write).
        guard let node else { return (nil, .absent) }
        return (nil, show(node))
    }

    private func show(_ node: PathNode) -> VisibleNode {
        if let winner = winner(of: node) {
            if winner.kind == .value, let value = winner.value { return .value(value) }
            return .map
        }
        return node.hasLiveEvents ? .map : .absent
    }

    /// The kind and value of the live event that wins at `node` (`DocumentEvent.winsOver`),
    /// read in place: rendering a drawing visits every stroke's node, and copying each winning
    /// event would touch its path and context too.
    private func winner(of node: PathNode) -> (kind: DocumentEvent.Kind, value: DocumentValue?)? {
        guard let first = node.firstLive else { return nil }
        if node.liveCount == 1 { return store.kindAndValue(at: first) }
        var best: (timestamp: HybridTimestamp, dot: Dot)?
        node.forEachLive { dot in
            guard let timestamp = store.timestamp(at: dot) else { return }
            if let current = best,
                (timestamp, dot.peer, dot.counter) <= (
                    current.timestamp, current.dot.peer, current.dot.counter
                )
            {
                return
            }
            best = (timestamp, dot)
        }
        return best.flatMap { store.kindAndValue(at: $0.dot) }
    }

    /// Whether `render(node)` is non-nil, without rendering: it stops at the first entry that
    /// shows, where `render` would build every stroke of the map.
    private func showsSomething(_ node: PathNode) -> Bool {
        if let winner = winner(of: node) { return winner.kind != .value || winner.value != nil }
        return node.children.values.contains(where: showsSomething)
    }

    /// What `node` shows, built whole (nil for nothing), when the levels above it show maps.
    func render(_ node: PathNode) -> DocumentValue? {
        let winner = winner(of: node)
        if let winner, winner.kind == .value { return winner.value }
        var entries: [String: DocumentValue] = [:]
        let children = node.children
        entries.reserveCapacity(children.count)
        // By index: each child is rendered where it lies (a `for` over the pairs copies every
        // node, retaining its live event's shape).
        for index in children.values.indices {
            if let value = render(children.values[index]) { entries[children.keys[index]] = value }
        }
        if winner == nil && entries.isEmpty { return nil }
        return .object(entries)
    }
}

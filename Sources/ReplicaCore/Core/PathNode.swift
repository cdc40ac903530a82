/// One level of a document's path tree: the live events at this path, and what later events have
/// already said about removing the events here (so events that arrive late are removed at once).
///
/// The removal facts are kept as version vectors: a union of "every write this writer had seen"
/// sets is again such a set, described by the pointwise maximum.
///
/// Most nodes are a register's leaf (a drawing's 100,000 strokes are 100,000 of them): at most one
/// live event, a subtree removal (the context of the value written there, shared with the event),
/// no map facts and nothing below. Such a node is 24 bytes inline, the live event beside a one-word
/// `Shape`, and allocates nothing of its own; a node with more (two concurrent live events, a map
/// fact, a child) keeps everything in one `Branch`, shared between copies until one is changed.
struct PathNode: Sendable {
    /// The live event of a `.single` node; unused (zero) in the other shapes.
    private var sole = Dot(peer: PeerID(0), counter: 0)
    private var shape = Shape.leaf(.empty)

    private enum Shape {
        /// No live event: only the subtree removal (a register whose values are all removed).
        case leaf(VersionVector)
        /// One live event, `sole`, and the subtree removal.
        case single(VersionVector)
        /// Everything in a box: any number of live events, the three facts, the children.
        case branch(Branch)
    }

    /// What a node holds beyond a register's leaf. Changed only where uniquely referenced
    /// (`makeBranch()` copies it otherwise), so sharing it between threads is as safe as sharing
    /// the arrays and dictionaries it holds.
    ///
    /// Its properties are not checked for overlapping access at run time: the walks down a path
    /// hold one branch's `children` while they change the child's own branch, never the same
    /// one twice (a node is reached only through its parent), and the checks were 2–3% of every
    /// applied delta's instructions (`swift_beginAccess` on each level of each event's path).
    private final class Branch: @unchecked Sendable {
        /// Live (not removed) events at exactly this path, in the order they arrived: a handful
        /// at most (one per concurrent writer), so an array.
        @exclusivity(unchecked) var live: [Dot]
        /// Seen by a value write or a removal here: removes events here and below.
        @exclusivity(unchecked) var subtreeRemoval: VersionVector
        /// Seen by a map marker here: removes register values here.
        @exclusivity(unchecked) var mapRemoval = VersionVector.empty
        /// Seen by a write below: removes register values here (a map is being written under them).
        @exclusivity(unchecked) var descendantWriteRemoval = VersionVector.empty
        @exclusivity(unchecked) var children = ChildTable()

        init(live: [Dot], subtreeRemoval: VersionVector) {
            self.live = live
            self.subtreeRemoval = subtreeRemoval
        }

        func copy() -> Branch {
            let copy = Branch(live: live, subtreeRemoval: subtreeRemoval)
            copy.mapRemoval = mapRemoval
            copy.descendantWriteRemoval = descendantWriteRemoval
            copy.children = children
            return copy
        }
    }

    init() {}

    /// This node's branch, made (from a leaf) or copied (when shared) first, so it can be changed.
    private mutating func makeBranch() -> Branch {
        switch shape {
        case .branch(var branch):
            shape = .leaf(.empty)  // so that `branch` counts only the references of other copies
            if !isKnownUniquelyReferenced(&branch) { branch = branch.copy() }
            shape = .branch(branch)
            return branch
        case .leaf(let subtreeRemoval):
            let branch = Branch(live: [], subtreeRemoval: subtreeRemoval)
            shape = .branch(branch)
            return branch
        case .single(let subtreeRemoval):
            let branch = Branch(live: [sole], subtreeRemoval: subtreeRemoval)
            sole = Dot(peer: PeerID(0), counter: 0)
            shape = .branch(branch)
            return branch
        }
    }
}

extension PathNode {
    /// How many live events are at exactly this path.
    var liveCount: Int {
        switch shape {
        case .leaf: 0
        case .single: 1
        case .branch(let branch): branch.live.count
        }
    }

    /// The first live event here, in the order they arrived.
    var firstLive: Dot? {
        switch shape {
        case .leaf: nil
        case .single: sole
        case .branch(let branch): branch.live.first
        }
    }

    /// Calls `body` with each live event here, in the order they arrived.
    func forEachLive(_ body: (Dot) throws -> Void) rethrows {
        switch shape {
        case .leaf: return
        case .single: try body(sole)
        case .branch(let branch): for dot in branch.live { try body(dot) }
        }
    }

    /// Adds a live event after the others.
    mutating func addLive(_ dot: Dot) {
        switch shape {
        case .leaf(let subtreeRemoval):
            sole = dot
            shape = .single(subtreeRemoval)
        case .single(let subtreeRemoval):
            // A second, concurrent writer: the branch is made holding both, its array allocated
            // once (making it from the one event and appending grew the array at once).
            shape = .branch(Branch(live: [sole, dot], subtreeRemoval: subtreeRemoval))
            sole = Dot(peer: PeerID(0), counter: 0)
        case .branch:
            makeBranch().live.append(dot)
        }
    }

    /// Removes the live events for which `shouldRemove` is true (asked once for each, in order),
    /// keeping the others in their order.
    mutating func removeLive(where shouldRemove: (Dot) throws -> Bool) rethrows {
        switch shape {
        case .leaf: return
        case .single(let subtreeRemoval):
            if try shouldRemove(sole) {
                sole = Dot(peer: PeerID(0), counter: 0)
                shape = .leaf(subtreeRemoval)
            }
        case .branch:
            // Asked first without changing the branch: most walks remove nothing at a map's node
            // (its marker is not a register value), and then nothing is copied or written.
            guard let first = try firstRemovedLive(where: shouldRemove) else { return }
            let branch = makeBranch()
            var kept = first
            for index in (first + 1)..<branch.live.count where !(try shouldRemove(branch.live[index])) {
                branch.live[kept] = branch.live[index]
                kept += 1
            }
            branch.live.removeLast(branch.live.count - kept)
        }
    }

    /// The position of the first live event `shouldRemove` is true for (asked in order, up to
    /// that one), or nil.
    private func firstRemovedLive(where shouldRemove: (Dot) throws -> Bool) rethrows -> Int? {
        guard case .branch(let branch) = shape else { return nil }
        return try branch.live.firstIndex(where: shouldRemove)
    }

    /// Seen by a value write or a removal here: removes events here and below.
    var subtreeRemoval: VersionVector {
        switch shape {
        case .leaf(let vector), .single(let vector): vector
        case .branch(let branch): branch.subtreeRemoval
        }
    }

    /// Seen by a map marker here: removes register values here.
    var mapRemoval: VersionVector {
        guard case .branch(let branch) = shape else { return .empty }
        return branch.mapRemoval
    }

    /// Seen by a write below: removes register values here (a map is being written under them).
    var descendantWriteRemoval: VersionVector {
        guard case .branch(let branch) = shape else { return .empty }
        return branch.descendantWriteRemoval
    }

    /// Adds the writes `context` covers to the subtree removal.
    mutating func recordSubtreeRemoval(_ context: VersionVector) {
        if context.isEmpty { return }
        switch shape {
        case .leaf(var vector):
            shape = .leaf(.empty)  // so that `vector` is the only reference to its entries
            vector.formUnion(context)
            shape = .leaf(vector)
        case .single(var vector):
            shape = .single(.empty)
            vector.formUnion(context)
            shape = .single(vector)
        case .branch:
            makeBranch().subtreeRemoval.formUnion(context)
        }
    }

    /// Adds the writes `context` covers to the map removal.
    mutating func recordMapRemoval(_ context: VersionVector) {
        if context.isEmpty { return }
        makeBranch().mapRemoval.formUnion(context)
    }

    /// Adds the writes `context` covers to the removal by a write below.
    mutating func recordDescendantWriteRemoval(_ context: VersionVector) {
        if context.isEmpty { return }
        makeBranch().descendantWriteRemoval.formUnion(context)
    }

    /// The levels below, by key (empty for a leaf).
    var children: ChildTable {
        guard case .branch(let branch) = shape else { return ChildTable() }
        return branch.children
    }

    /// The level below at `key`, if there is one.
    func child(_ key: String) -> PathNode? {
        guard case .branch(let branch) = shape else { return nil }
        return branch.children[key]
    }

    /// Whether there is any level below.
    var hasChildren: Bool {
        guard case .branch(let branch) = shape else { return false }
        return !branch.children.isEmpty
    }

    /// Runs `body` on the child at `key`, creating it when missing; with `writeBelow`, first adds
    /// the writes it covers to the removal by a write below (`recordDescendantWriteRemoval`), so
    /// that a walk down a path makes each branch writable once per level.
    mutating func withChild<T>(
        _ key: String, recordingWriteBelow writeBelow: VersionVector? = nil,
        _ body: (inout PathNode) throws -> T
    ) rethrows -> T {
        let branch = makeBranch()
        if let writeBelow { branch.descendantWriteRemoval.formUnion(writeBelow) }
        return try branch.children.withValue(forKey: key, body)
    }

    /// Runs `body` on the table of children, made with room for `count` of them when it is
    /// empty (so that a snapshot's or a record's 100,000 strokes do not grow it step by step;
    /// one that holds some already grows as it fills, since most of a run's keys may be there).
    mutating func withChildren(reservingRoomFor count: Int, _ body: (inout ChildTable) -> Void) {
        let branch = makeBranch()
        if branch.children.isEmpty { branch.children.reserveCapacity(count) }
        body(&branch.children)
    }

    /// Runs `body` on every child in place, in the children's order.
    mutating func forEachChild(_ body: (inout PathNode) throws -> Void) rethrows {
        guard hasChildren else { return }
        try makeBranch().children.forEachValue(body)
    }

    /// Whether any event at or below this node is live.
    var hasLiveEvents: Bool {
        switch shape {
        case .leaf: false
        case .single: true
        case .branch(let branch): !branch.live.isEmpty || branch.children.values.contains { $0.hasLiveEvents }
        }
    }

    subscript(path: ArraySlice<String>) -> PathNode? {
        guard let first = path.first else { return self }
        guard case .branch(let branch) = shape else { return nil }
        return branch.children[first]?[path.dropFirst()]
    }

    /// Runs `body` on the node at `path`, creating missing levels on the way.
    mutating func withNode<T>(at path: ArraySlice<String>, _ body: (inout PathNode) -> T) -> T {
        guard let first = path.first else { return body(&self) }
        return withChild(first) { $0.withNode(at: path.dropFirst(), body) }
    }
}

extension PathNode: Equatable {
    /// The same live events in the same order, the same facts and the same children, whichever
    /// shape holds them (a branch whose live events and children are gone equals a leaf).
    static func == (lhs: PathNode, rhs: PathNode) -> Bool {
        if case .branch(let left) = lhs.shape, case .branch(let right) = rhs.shape, left === right {
            return true
        }
        guard lhs.liveCount == rhs.liveCount, lhs.subtreeRemoval == rhs.subtreeRemoval,
            lhs.mapRemoval == rhs.mapRemoval, lhs.descendantWriteRemoval == rhs.descendantWriteRemoval
        else { return false }
        switch (lhs.shape, rhs.shape) {
        case (.branch(let left), .branch(let right)):
            return left.live == right.live && left.children == right.children
        case (.branch(let branch), _), (_, .branch(let branch)):
            // The other is a leaf: one live event at most, no children.
            return branch.children.isEmpty && lhs.firstLive == rhs.firstLive
        default:
            return lhs.firstLive == rhs.firstLive
        }
    }
}

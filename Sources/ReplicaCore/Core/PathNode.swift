/// One level of a document's path tree: the live events at this path, and what later events have
/// already said about removing the events here (so events that arrive late are removed at once).
///
/// The removal facts are kept as version vectors: a union of "every write this writer had seen"
/// sets is again such a set, described by the pointwise maximum.
struct PathNode: Equatable, Sendable {
    /// Live (not removed) events at exactly this path: a handful at most (one per concurrent
    /// writer), so an array.
    var live: [Dot] = []
    /// Seen by a value write or a removal here: removes events here and below.
    var subtreeRemoval = VersionVector()
    /// Seen by a map marker here: removes register values here.
    var mapRemoval = VersionVector()
    /// Seen by a write below: removes register values here (a map is being written under them).
    var descendantWriteRemoval = VersionVector()
    var children: [String: PathNode] = [:]

    /// Whether any event at or below this node is live.
    var hasLiveEvents: Bool {
        !live.isEmpty || children.values.contains { $0.hasLiveEvents }
    }

    subscript(path: ArraySlice<String>) -> PathNode? {
        guard let first = path.first else { return self }
        return children[first]?[path.dropFirst()]
    }

    /// Runs `body` on the node at `path`, creating missing levels on the way.
    mutating func withNode<T>(at path: ArraySlice<String>, _ body: (inout PathNode) -> T) -> T {
        guard let first = path.first else { return body(&self) }
        return children[first, default: PathNode()].withNode(at: path.dropFirst(), body)
    }
}

/// The patches of one document for one commit, read from the paths the commit changed.
///
/// A commit names the paths at which it changed events (`ReplicaCommit`, or only those whose
/// winner changed: `shownChangedPaths(of:)`), and every visible change lies at one of them or
/// below it, or is a map above them appearing or disappearing with its first or last entry. So
/// each changed path is read once (a path under one already read is covered by it), and each map
/// above it that no longer shows as a map is reported as what the document shows there. The cost
/// follows the commit, not the document.
extension ReplicaState {
    /// What `changedPaths` of the document `key` show now, shortest paths first. A document that
    /// vanished, appeared or had its root or `_id` written is one whole-document patch.
    public func patches(of key: DocumentKey, changedPaths: Set<[String]>) -> [DocumentPatch] {
        // The whole document (a whole state taken, say) needs no order: the paths are not sorted.
        if changedPaths.contains([]) || changedPaths.contains(where: { $0.first == "_id" }) {
            return patches(of: key, orderedPaths: [[]])
        }
        return patches(of: key, orderedPaths: Self.inPatchOrder(changedPaths))
    }

    /// `changedPaths` in the order `patches(of:changedPaths:)` reads them: shorter paths first,
    /// then in component order, so patches come in one order every time.
    package static func inPatchOrder(_ changedPaths: Set<[String]>) -> [[String]] {
        changedPaths.sorted { lhs, rhs in
            lhs.count != rhs.count ? lhs.count < rhs.count : lhs.lexicographicallyPrecedes(rhs)
        }
    }

    /// What `paths` (each once, in an order that does not depend on how they were gathered) of
    /// the document `key` show now: shorter paths first, and paths of one length in the order
    /// given. No path means no change, and no patch.
    package func patches(of key: DocumentKey, orderedPaths paths: [[String]]) -> [DocumentPatch] {
        patches(of: key, count: paths.count, path: { paths[$0] }) { index, map in
            map.child(paths[index][paths[index].count - 1])
        }
    }

    /// `patches(of:orderedPaths:)` of the paths a commit showed changed (`shownChangedPaths`),
    /// each read from the node found when it was checked.
    ///
    /// Mutating in form only: the document is read where it lies (`readInPlace`).
    package mutating func patches(of key: DocumentKey, shown: [ShownPath]) -> [DocumentPatch] {
        if shown.isEmpty { return [] }
        return readInPlace(key) { state in
            Self.patches(in: state, count: shown.count, path: { shown[$0].path }) { index, _ in
                shown[index].node
            }
        } ?? [DocumentPatch(path: [], value: nil)]
    }

    /// The patches of `count` paths (`path(index)`), shorter first, each entry's node given by
    /// `node(index, the node of the map holding it)`.
    ///
    /// Paths under one map that come one after another (a peer's thousands of strokes) look at
    /// the levels above them once, and each then reads its own entry of that map.
    private func patches(
        of key: DocumentKey, count: Int, path: (Int) -> [String], node: (Int, PathNode) -> PathNode?
    ) -> [DocumentPatch] {
        if count == 0 { return [] }
        guard let state = document(key) else { return [DocumentPatch(path: [], value: nil)] }
        return Self.patches(in: state, count: count, path: path, node: node)
    }

    /// `patches(of:count:path:node:)` of a document there is (`count` above zero).
    private static func patches(
        in state: borrowing DocumentState, count: Int, path: (Int) -> [String],
        node: (Int, PathNode) -> PathNode?
    ) -> [DocumentPatch] {
        guard state.hasFields else { return [DocumentPatch(path: [], value: nil)] }
        var longest = 0
        for index in 0..<count {
            let path = path(index)
            if path.isEmpty || path.first == "_id" {
                return [DocumentPatch(path: [], value: state.fields.map(DocumentValue.object))]
            }
            longest = max(longest, path.count)
        }
        var patches: [DocumentPatch] = []
        patches.reserveCapacity(count)
        // Paths read so far, kept only while a longer path may still come under one of them.
        var read: Set<[String]> = []
        // What the levels above the last path showed, for the paths under the same map.
        var above: (parent: ArraySlice<String>, map: PathNode?)?
        for length in 1...longest {
            for index in 0..<count {
                let path = path(index)
                guard path.count == length else { continue }
                let parent = path.dropLast()
                if above?.parent != parent {
                    above = (parent, mapAbove(path, in: state, read: &read, patches: &patches))
                }
                guard let map = above?.map else { continue }
                if length < longest, !read.insert(path).inserted { continue }
                // Called directly: `flatMap(state.render)` copied the whole document state for
                // each entry to make the function value.
                var value: DocumentValue?
                if let entry = node(index, map) { value = state.render(entry) }
                patches.append(DocumentPatch(path: path, value: value))
            }
        }
        return patches
    }

    /// The node of the map that holds `path`'s entry, when no path read already covers it and
    /// every level above it shows a map; otherwise nil, after reporting the shortest level above
    /// that no longer shows a map (it lost its last entry, or a value hides it now), once.
    private static func mapAbove(
        _ path: [String], in state: borrowing DocumentState, read: inout Set<[String]>,
        patches: inout [DocumentPatch]
    ) -> PathNode? {
        if !read.isEmpty, (1..<path.count).contains(where: { read.contains(Array(path.prefix($0))) }) {
            return nil
        }
        switch state.mapNode(above: path[...]) {
        case .map(let node):
            return node
        case .notShowingMap(let depth):
            let level = Array(path.prefix(depth))
            if read.insert(level).inserted {
                patches.append(DocumentPatch(path: level, value: state.value(at: level)))
            }
            return nil
        }
    }
}

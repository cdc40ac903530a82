/// The patches of one document for one commit, read from the paths the commit changed.
///
/// A commit names the paths of the events it wrote or removed (`ReplicaCommit`), and every
/// visible change lies at one of them or below it, or is a map above them appearing or
/// disappearing with its first or last entry. So each changed path is read once (a path under
/// one already read is covered by it), and each map above it that no longer shows as a map is
/// reported as what the document shows there. The cost follows the commit, not the document.
extension ReplicaState {
    /// What `changedPaths` of the document `key` show now, shortest paths first. A document that
    /// vanished, appeared or had its root or `_id` written is one whole-document patch.
    public func patches(of key: DocumentKey, changedPaths: Set<[String]>) -> [DocumentPatch] {
        guard let state = document(key), state.hasFields else { return [DocumentPatch(path: [], value: nil)] }
        if changedPaths.contains([]) || changedPaths.contains(where: { $0.first == "_id" }) {
            return [DocumentPatch(path: [], value: state.fields.map(DocumentValue.object))]
        }
        var patches: [DocumentPatch] = []
        var read: Set<[String]> = []
        for path in changedPaths.sorted(by: Self.shorterFirst) {
            if (1..<path.count).contains(where: { read.contains(Array(path.prefix($0))) }) { continue }
            read.insert(path)
            // A map above that lost its last entry, or is hidden by a value now: the shortest
            // such place says it all.
            if let depth = (1..<path.count).first(where: { state.visibleNode(at: path.prefix($0)) != .map }) {
                let above = Array(path.prefix(depth))
                if read.insert(above).inserted {
                    patches.append(DocumentPatch(path: above, value: state.value(at: above)))
                }
                continue
            }
            patches.append(DocumentPatch(path: path, value: state.value(at: path)))
        }
        return patches
    }

    /// Shorter paths first, then in component order, so patches come in one order every time.
    private static func shorterFirst(_ lhs: [String], _ rhs: [String]) -> Bool {
        lhs.count != rhs.count ? lhs.count < rhs.count : lhs.lexicographicallyPrecedes(rhs)
    }
}

/// Bringing an observer's last result up to date from the paths a commit changed, instead of
/// running its query again.
///
/// For `SELECT * FROM c WHERE _id = ...` over a large document (a drawing of 10,000 strokes) the
/// query renders every entry and the comparison with the last result reads them all again, once
/// per commit. A commit names the paths of the events it wrote or removed (`ReplicaCommit`), and
/// every visible change lies at one of them or below it, or is a map above them appearing or
/// disappearing with its first or last entry. So the last result is patched: each changed path
/// is read again (a path under one already read is covered by it), and each map above it is kept
/// or dropped as the document now shows it.
extension ReplicaState {
    /// Patches `result`, the last result of `select` (a query for the one document `key`), for a
    /// commit that changed `changedPaths` of it. Returns whether the result changed, or nil,
    /// leaving `result` untouched, when the shortcut does not apply (another projection, the
    /// document appearing or disappearing, its root rewritten): then the query runs again. Once
    /// it starts patching it finishes: every path it touches is set to what the document shows there.
    func patch(
        _ result: inout QueryResult, of select: DQLSelect, document key: DocumentKey, changedPaths: Set<[String]>
    ) -> Bool? {
        guard case .allFields = select.projection, result.documents.count == 1,
            !changedPaths.contains([]), !changedPaths.contains(where: { $0.first == "_id" }),
            let state = document(key), state.hasFields
        else { return nil }
        // Out of the result first, so the row's storage is not shared and changes in place.
        var row = result.documents[0]
        result.documents = []
        defer { result.documents = [row] }
        var changed = false
        var read: Set<[String]> = []
        for path in changedPaths.sorted(by: { $0.count < $1.count }) {
            if (1..<path.count).contains(where: { read.contains(Array(path.prefix($0))) }) { continue }
            read.insert(path)
            let now = state.value(at: path)
            if Self.value(at: path[...], in: row) != now {
                changed = true
                Self.place(now, at: path[...], in: &row)
            }
            for depth in stride(from: path.count - 1, through: 1, by: -1) {
                let above = path.prefix(depth)
                switch state.visibleNode(at: above) {
                case .map?:
                    continue
                case .absent?, nil, .value?:
                    // The map lost its last entry, or something above hides it now (a register
                    // there is a changed path itself, so this is only a safety net): show what
                    // the document shows there.
                    let shown = state.value(at: Array(above))
                    if Self.value(at: above, in: row) != shown {
                        changed = true
                        Self.place(shown, at: above, in: &row)
                    }
                }
            }
        }
        return changed
    }

    private static func value(at path: ArraySlice<String>, in row: [String: DocumentValue]) -> DocumentValue? {
        guard let first = path.first else { return nil }
        guard path.count > 1 else { return row[first] }
        guard case .object(let inner)? = row[first] else { return nil }
        return value(at: path.dropFirst(), in: inner)
    }
}

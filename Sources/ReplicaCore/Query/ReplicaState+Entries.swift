extension ReplicaState {
    /// Sets `entries` in the document `key`, creating it if needed: what
    /// `INSERT INTO collection DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE_LOCAL_DIFF` does with the
    /// document that nests the entries under `_id` (an entry whose visible value is already the
    /// new one is not written), with the same events in the same order and the same result,
    /// without building, resolving and taking apart that document: the coordinator's flush and
    /// the bench's write.
    ///
    /// The order of `entries` does not matter. An entry may not be the document itself, `_id`, or
    /// at or above another entry's path (what no nested document can say); that is checked
    /// before the first write, so a call that throws has changed nothing.
    public mutating func upsert(_ entries: [DocumentEntry], into key: DocumentKey, wall: Int64) throws
        -> QueryResult
    {
        let sorted = try Self.writable(entries, collection: key.collection)
        let wrote = withAuthor(wall: wall) { state, author in
            state.modify(key) { document -> (Bool, [Dot]) in
                let touched = document.assign(sorted, author: &author)
                return (!touched.isEmpty, touched)
            }
        }
        return wrote ? QueryResult(affectedCount: 1, affectedDocumentIDs: [key.id]) : QueryResult()
    }

    /// Removes the entries at `paths` of the document `key`: what
    /// ``UPDATE collection UNSET `p`, ... WHERE _id = :id`` does (nothing when the document does
    /// not exist), with the same events, result and errors.
    public mutating func unset(_ paths: [[String]], in key: DocumentKey, wall: Int64) throws -> QueryResult {
        for path in paths { try Self.validateWritable(DQLPath(path)) }
        guard document(key)?.isVisible == true else { return QueryResult() }
        let wrote = withAuthor(wall: wall) { state, author in
            state.modify(key) { document -> (Bool, [Dot]) in
                var touched: [Dot] = []
                for path in paths { touched += document.unset(at: path, author: &author) }
                return (!touched.isEmpty, touched)
            }
        }
        return wrote ? QueryResult(affectedCount: 1, affectedDocumentIDs: [key.id]) : QueryResult()
    }

    /// The entries in path order, or the reason the document they make cannot be written.
    private static func writable(_ entries: [DocumentEntry], collection: String) throws -> [DocumentEntry] {
        for entry in entries {
            if entry.path.isEmpty {
                throw ReplicaError.invalidValue(
                    reason: "an entry written into \(collection) needs a path below the document")
            }
            if entry.path.first == "_id" {
                throw ReplicaError.invalidValue(
                    reason: "_id cannot be changed; insert a new document instead")
            }
        }
        guard entries.count > 1 else { return entries }
        let sorted = entries.sorted { $0.path.lexicographicallyPrecedes($1.path) }
        // Sorted, a path at or above another comes right before one that starts with it.
        for index in sorted.indices.dropFirst() {
            let above = sorted[index - 1].path
            if sorted[index].path.starts(with: above) {
                throw ReplicaError.invalidValue(
                    reason:
                        "the entries written into \(collection) hold '\(DQLPath(sorted[index].path))' at or below '\(DQLPath(above))'"
                )
            }
        }
        return sorted
    }
}

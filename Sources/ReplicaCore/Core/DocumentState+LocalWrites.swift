extension DocumentState {
    /// Writes `value` at `path`. Objects merge into what is there (each entry is assigned on its
    /// own); anything else replaces the register. With `onlyDifferences`, entries whose visible
    /// value already equals the new one are not written at all.
    ///
    /// Returns the dots whose stored state changed (empty when nothing was written).
    mutating func assign(
        _ value: DocumentValue, at path: [String], onlyDifferences: Bool, author: inout LocalAuthor
    ) -> [Dot] {
        var touched: [Dot] = []
        // Every level above must be a map for the value to be seen.
        for depth in 0..<path.count where visibleNode(at: path.prefix(depth)) != .map {
            write(.map, at: Array(path.prefix(depth)), value: nil, author: &author, touched: &touched)
        }
        assignBody(value, at: path, onlyDifferences: onlyDifferences, author: &author, touched: &touched)
        return touched
    }

    private mutating func assignBody(
        _ value: DocumentValue, at path: [String], onlyDifferences: Bool, author: inout LocalAuthor,
        touched: inout [Dot]
    ) {
        if case .object(let entries) = value {
            if visibleNode(at: path[...]) != .map {
                write(.map, at: path, value: nil, author: &author, touched: &touched)
            }
            // An entry at a time in key order; a single entry (every stroke the app writes) needs
            // no sorted copy of the keys.
            if entries.count == 1, let (key, entry) = entries.first {
                assignBody(
                    entry, at: path + [key], onlyDifferences: onlyDifferences, author: &author,
                    touched: &touched)
                return
            }
            for key in entries.keys.sorted() {
                if let entry = entries[key] {
                    assignBody(
                        entry, at: path + [key], onlyDifferences: onlyDifferences, author: &author,
                        touched: &touched)
                }
            }
        } else {
            if onlyDifferences, visibleNode(at: path[...]) == .value(value) { return }
            write(.value, at: path, value: value, author: &author, touched: &touched)
        }
    }

    /// Removes everything at and below `path` that this replica has seen. Writes nothing when
    /// nothing there is live. An empty path deletes the document (leaving its events as a tombstone).
    mutating func unset(at path: [String], author: inout LocalAuthor) -> [Dot] {
        guard root[path[...]]?.hasLiveEvents == true else { return [] }
        var touched: [Dot] = []
        write(.removal, at: path, value: nil, author: &author, touched: &touched)
        return touched
    }

    private mutating func write(
        _ kind: DocumentEvent.Kind, at path: [String], value: DocumentValue?, author: inout LocalAuthor,
        touched: inout [Dot]
    ) {
        let dot = Dot(peer: author.peer, counter: versionVector[author.peer] + 1)
        let event = DocumentEvent(
            dot: dot, timestamp: author.stamp(), path: path, kind: kind, value: value,
            context: versionVector, isRemoved: false)
        integrate(event, touched: &touched)
    }
}

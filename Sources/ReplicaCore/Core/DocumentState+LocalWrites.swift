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

    /// Writes `entries` (sorted by path, none a prefix of another) as `assign(_:at:onlyDifferences:
    /// author:)` writes the object that nests them at the root with `onlyDifferences`: the same
    /// events in the same order. That assignment enters each object level once, in key order,
    /// making it a map first when it shows none; here each entry looks only at the levels it does
    /// not share with the entry before it, in one walk down its path.
    ///
    /// Returns the dots whose stored state changed (empty when nothing was written).
    mutating func assign(_ entries: [DocumentEntry], author: inout LocalAuthor) -> [Dot] {
        var touched: [Dot] = []
        guard !entries.isEmpty else {
            // An upsert of nothing but `_id` still makes the document exist.
            if visibleNode(at: [][...]) != .map {
                write(.map, at: [], value: nil, author: &author, touched: &touched)
            }
            return touched
        }
        // Room for each entry's value and the one it replaces: an overwrite's second dot grew
        // the array made for its first (a second allocation and a copy, on every overwrite).
        touched.reserveCapacity(2 * entries.count)
        for index in entries.indices {
            let path = entries[index].path
            var from = 0
            if index > 0 {
                let previous = entries[index - 1].path
                var shared = 0
                while shared < previous.count, shared < path.count, previous[shared] == path[shared] {
                    shared += 1
                }
                from = shared + 1
            }
            while true {
                let (level, shown) = firstLevelNotShowingMap(along: path, from: from)
                if let level {
                    write(.map, at: Array(path.prefix(level)), value: nil, author: &author, touched: &touched)
                    from = level + 1
                    continue
                }
                let value = entries[index].value
                if case .object = value {
                    assignBody(value, at: path, onlyDifferences: true, author: &author, touched: &touched)
                } else if shown != .value(value) {
                    write(.value, at: path, value: value, author: &author, touched: &touched)
                }
                break
            }
        }
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

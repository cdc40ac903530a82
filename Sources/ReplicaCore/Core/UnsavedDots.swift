/// The dots whose stored state changed since the last commit, by document (`ReplicaState`'s
/// unsaved changes). A local write changes one document, so the first document a commit writes
/// is held apart from the table: kept in the table, its entry was taken out by every commit and
/// made again by the next write, a lookup and an insertion each time.
struct UnsavedDots {
    /// The first document written since the table was last emptied (`takeOnly`, `removeAll`).
    private var first: (key: DocumentKey, dots: [Dot])?
    /// Every other document written since then (empty while `first` is nil).
    private var others: [DocumentKey: [Dot]] = [:]

    var isEmpty: Bool { first == nil }

    /// The documents with unsaved dots.
    var keys: [DocumentKey] {
        guard let first else { return [] }
        return [first.key] + others.keys
    }

    subscript(key: DocumentKey) -> [Dot]? {
        if let first, first.key == key { return first.dots }
        return others[key]
    }

    /// Adds `touched` to `key`'s dots: handed over whole when the document has none yet.
    mutating func record(_ touched: [Dot], for key: DocumentKey) {
        guard !touched.isEmpty else { return }
        if first == nil {
            first = (key, touched)
        } else if first?.key == key {
            first?.dots.append(contentsOf: touched)
        } else {
            Self.append(touched, to: &others[key, default: []])
        }
    }

    /// Forgets `key`'s dots.
    mutating func remove(_ key: DocumentKey) {
        if let first, first.key == key {
            self.first = others.popFirst().map { (key: $0.key, dots: $0.value) }
        } else {
            others[key] = nil
        }
    }

    /// The one document's dots, taken, when exactly one document has any (every local write).
    mutating func takeOnly() -> (key: DocumentKey, dots: [Dot])? {
        guard others.isEmpty, let only = first else { return nil }
        first = nil
        return only
    }

    /// Forgets every document's dots, keeping the table's storage for the next commit.
    mutating func removeAll() {
        first = nil
        others.removeAll(keepingCapacity: true)
    }

    private static func append(_ touched: [Dot], to dots: inout [Dot]) {
        if dots.isEmpty { dots = touched } else { dots.append(contentsOf: touched) }
    }
}

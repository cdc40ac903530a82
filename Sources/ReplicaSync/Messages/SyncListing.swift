import ReplicaCore

/// What a drawing list needs of a document it does not hold: its name and when it went to the
/// trash. A relay answers a `listingRequest` with one of these per document of the collection, so
/// a client can show every drawing while holding (and making the relay read) only some of them.
public struct SyncListingEntry: Equatable, Sendable {
    public var name: String?
    /// Unix milliseconds; nil for a document not in the trash.
    public var trashedAt: Int64?

    public init(name: String?, trashedAt: Int64?) {
        self.name = name
        self.trashedAt = trashedAt
    }

    /// The entry of a document, nil for one that is deleted. A document's name and trash time
    /// depend only on its events at the root, at `name` and at `trashed` (and below them), so a
    /// state holding only those events gives the same entry as the whole document.
    public init?(document: DocumentState) {
        guard document.isVisible else { return nil }
        name = document.value(at: ["name"])?.stringValue
        if case .number(let value)? = document.value(at: ["trashed"]),
            let whole = Int64(exactly: value.rounded())
        {
            trashedAt = whole
        } else {
            trashedAt = nil
        }
    }

    /// The first key of the paths an entry depends on ("" for the root).
    public static let pathHeads: Set<String> = ["", "name", "trashed"]
}

/// One document's entry in a `listing` message, or nil for a document gone from the collection.
public struct SyncListingChange: Equatable, Sendable {
    public var documentID: String
    public var entry: SyncListingEntry?

    public init(documentID: String, entry: SyncListingEntry?) {
        self.documentID = documentID
        self.entry = entry
    }

    /// What turns `old` into `new`, in document id order.
    public static func changes(from old: [String: SyncListingEntry], to new: [String: SyncListingEntry])
        -> [SyncListingChange]
    {
        var changes: [SyncListingChange] = []
        for (id, entry) in new where old[id] != entry {
            changes.append(SyncListingChange(documentID: id, entry: entry))
        }
        for id in old.keys where new[id] == nil {
            changes.append(SyncListingChange(documentID: id, entry: nil))
        }
        return changes.sorted { $0.documentID < $1.documentID }
    }
}

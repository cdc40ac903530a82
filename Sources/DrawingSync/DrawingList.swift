import ReplicaCore
import ReplicaStore

/// The drawings in a replica, kept current by an observer, with create, rename and delete.
///
/// Deleting moves a drawing to the trash: its document stays, with a `trashed` field (the wall
/// time, Unix milliseconds), so it syncs as one register and a restore (`UNSET trashed`) brings
/// back everything it had, on every peer. Only `deleteForever` removes the document.
public final class DrawingList {
    /// One drawing as the list shows it.
    public struct Entry: Equatable, Sendable {
        public var id: String
        public var name: String
        /// When it was moved to the trash (Unix milliseconds); nil for a drawing not in it.
        public var trashedAt: Int64?

        public init(id: String, name: String, trashedAt: Int64? = nil) {
            self.id = id
            self.name = name
            self.trashedAt = trashedAt
        }
    }

    /// How long a drawing stays in the trash before `purgeTrash` deletes it for good.
    public static let trashKeepsMilliseconds: Int64 = 30 * 24 * 3_600_000

    /// The drawings not in the trash, sorted by name, then id.
    public private(set) var entries: [Entry] = []
    /// The drawings in the trash, the latest moved there first.
    public private(set) var trash: [Entry] = []
    /// The ids of the drawings this replica holds (in the trash or not); the others in `entries`
    /// and `trash` are only listed by a relay (`setListed`).
    public private(set) var heldIDs: Set<String> = []
    /// Called after the list changed (a drawing created, renamed or deleted, here or by a peer).
    public var onChange: (([Entry]) -> Void)?

    private let replica: Replica
    private var observation: ObservationToken?
    private var held: [Entry] = []
    private var listed: [Entry] = []

    public init(replica: Replica) throws {
        self.replica = replica
        observation = try replica.observe(
            .select(
                DQLSelect(
                    projection: .fields([DQLPath(["_id"]), DQLPath(["name"]), DQLPath(["trashed"])]),
                    collection: DrawingSyncCoordinator.collection, filter: nil))
        ) { [weak self] result in
            self?.receive(result)
        }
    }

    deinit {
        observation?.cancel()
    }

    /// The drawing whose id is `idOrName`, else the first whose name is (not one in the trash).
    public func find(_ idOrName: String) -> Entry? {
        entries.first { $0.id == idOrName } ?? entries.first { $0.name == idOrName }
    }

    /// The drawing in the trash whose id is `idOrName`, else the first whose name is.
    public func findInTrash(_ idOrName: String) -> Entry? {
        trash.first { $0.id == idOrName } ?? trash.first { $0.name == idOrName }
    }

    /// The drawings a relay lists (name and trash time of each, `SyncListingEntry`), shown beside
    /// the ones this replica holds; for a drawing in both, the replica's own entry counts.
    public func setListed(_ entries: [Entry]) {
        guard entries != listed else { return }
        listed = entries
        publish()
    }

    /// Whether a drawing is only listed (its document is not in this replica).
    public func isOnlyListed(_ id: String) -> Bool {
        !heldIDs.contains(id) && listed.contains { $0.id == id }
    }

    /// Creates a drawing with no strokes.
    public func create(id: String, name: String) throws {
        try replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc)",
            arguments: ["doc": .object(["_id": .string(id), "name": .string(name), "strokes": .object([:])])])
    }

    /// Creates a drawing called `name`, refusing a name another drawing has (two rows that look
    /// the same in the menu could not be told apart). Its id is the name, or, when a drawing
    /// since renamed holds that id, the name with the first free `-2`, `-3`, ... after it.
    @discardableResult
    public func create(named name: String) throws -> Entry {
        if entries.contains(where: { $0.name == name }) { throw DrawingListError.nameTaken(name) }
        if trash.contains(where: { $0.name == name }) { throw DrawingListError.nameInTrash(name) }
        var id = name
        var suffix = 2
        while (entries + trash).contains(where: { $0.id == id }) {
            id = "\(name)-\(suffix)"
            suffix += 1
        }
        try create(id: id, name: name)
        return Entry(id: id, name: name)
    }

    /// Renames a drawing, refusing a name another drawing has.
    public func rename(id: String, toUniqueName name: String) throws {
        if entries.contains(where: { $0.name == name && $0.id != id }) {
            throw DrawingListError.nameTaken(name)
        }
        if trash.contains(where: { $0.name == name && $0.id != id }) {
            throw DrawingListError.nameInTrash(name)
        }
        try rename(id: id, to: name)
    }

    /// The drawing named by `idOrName`; taken out of the trash when it is there (asked for by
    /// name, it is wanted back); created with it as both id and name when there is none.
    public func openOrCreate(_ idOrName: String) throws -> Entry {
        if let entry = find(idOrName) { return entry }
        if let trashed = findInTrash(idOrName) {
            try restore(id: trashed.id)
            return Entry(id: trashed.id, name: trashed.name)
        }
        try create(id: idOrName, name: idOrName)
        return Entry(id: idOrName, name: idOrName)
    }

    public func rename(id: String, to name: String) throws {
        try replica.execute(
            "UPDATE drawings SET name = :name WHERE _id = :id",
            arguments: ["id": .string(id), "name": .string(name)])
    }

    /// Moves a drawing to the trash at `now` (Unix milliseconds), for every peer.
    public func delete(id: String, now: Int64) throws {
        try replica.execute(
            "UPDATE drawings SET trashed = :now WHERE _id = :id",
            arguments: ["id": .string(id), "now": .number(Double(now))])
    }

    /// Takes a drawing out of the trash, with everything it had.
    public func restore(id: String) throws {
        try replica.execute("UPDATE drawings UNSET trashed WHERE _id = :id", arguments: ["id": .string(id)])
    }

    /// Deletes a drawing for good: its document goes (a peer drawing on it at the same time
    /// still brings it back with its edit, as the replica's removals are add-wins).
    public func deleteForever(id: String) throws {
        try replica.execute("DELETE FROM drawings WHERE _id = :id", arguments: ["id": .string(id)])
    }

    /// Deletes for good the drawings that went to the trash more than `trashKeepsMilliseconds`
    /// before `now`; returns how many.
    @discardableResult
    public func purgeTrash(now: Int64) throws -> Int {
        let expired = trash.filter { ($0.trashedAt ?? now) < now - Self.trashKeepsMilliseconds }
        for entry in expired { try deleteForever(id: entry.id) }
        return expired.count
    }

    private func receive(_ result: QueryResult) {
        let all = result.documents.compactMap { document -> Entry? in
            guard let id = document["_id"]?.stringValue else { return nil }
            let trashedAt: Int64? =
                if case .number(let value)? = document["trashed"], let whole = Int64(exactly: value.rounded())
                {
                    whole
                } else {
                    nil
                }
            return Entry(
                id: id, name: document["name"]?.stringValue ?? "Untitled (\(id.prefix(8)))",
                trashedAt: trashedAt)
        }
        held = all
        heldIDs = Set(all.map(\.id))
        publish()
    }

    private func publish() {
        let all = held + listed.filter { !heldIDs.contains($0.id) }
        entries = all.filter { $0.trashedAt == nil }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
        trash = all.filter { $0.trashedAt != nil }.sorted {
            $0.trashedAt == $1.trashedAt ? $0.id < $1.id : ($0.trashedAt ?? 0) > ($1.trashedAt ?? 0)
        }
        onChange?(entries)
    }
}

/// Why the drawing list refused a change.
public enum DrawingListError: Error, Equatable, CustomStringConvertible {
    /// Another drawing already has this name.
    case nameTaken(String)
    /// A drawing in the trash has this name.
    case nameInTrash(String)

    public var description: String {
        switch self {
        case .nameTaken(let name): "a drawing named '\(name)' exists already: choose another name"
        case .nameInTrash(let name):
            "a drawing named '\(name)' is in the trash: put it back (u in the menu) or choose another name"
        }
    }
}

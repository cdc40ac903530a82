import ReplicaCore
import ReplicaStore

/// The drawings in a replica, kept current by an observer, with create, rename and delete.
public final class DrawingList {
    /// One drawing as the list shows it.
    public struct Entry: Equatable, Sendable {
        public var id: String
        public var name: String

        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// Sorted by name, then id.
    public private(set) var entries: [Entry] = []
    /// Called after the list changed (a drawing created, renamed or deleted, here or by a peer).
    public var onChange: (([Entry]) -> Void)?

    private let replica: Replica
    private var observation: ObservationToken?

    public init(replica: Replica) throws {
        self.replica = replica
        observation = try replica.observe(
            .select(
                DQLSelect(
                    projection: .fields([DQLPath(["_id"]), DQLPath(["name"])]),
                    collection: DrawingSyncCoordinator.collection, filter: nil))
        ) { [weak self] result in
            self?.receive(result)
        }
    }

    deinit {
        observation?.cancel()
    }

    /// The drawing whose id is `idOrName`, else the first whose name is.
    public func find(_ idOrName: String) -> Entry? {
        entries.first { $0.id == idOrName } ?? entries.first { $0.name == idOrName }
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
        var id = name
        var suffix = 2
        while entries.contains(where: { $0.id == id }) {
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
        try rename(id: id, to: name)
    }

    /// The drawing named by `idOrName`; created with it as both id and name when there is none.
    public func openOrCreate(_ idOrName: String) throws -> Entry {
        if let entry = find(idOrName) { return entry }
        try create(id: idOrName, name: idOrName)
        return Entry(id: idOrName, name: idOrName)
    }

    public func rename(id: String, to name: String) throws {
        try replica.execute(
            "UPDATE drawings SET name = :name WHERE _id = :id",
            arguments: ["id": .string(id), "name": .string(name)])
    }

    public func delete(id: String) throws {
        try replica.execute("DELETE FROM drawings WHERE _id = :id", arguments: ["id": .string(id)])
    }

    private func receive(_ result: QueryResult) {
        entries = result.documents.compactMap { document in
            guard let id = document["_id"]?.stringValue else { return nil }
            return Entry(id: id, name: document["name"]?.stringValue ?? "Untitled (\(id.prefix(8)))")
        }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
        onChange?(entries)
    }
}

/// Why the drawing list refused a change.
public enum DrawingListError: Error, Equatable, CustomStringConvertible {
    /// Another drawing already has this name.
    case nameTaken(String)

    public var description: String {
        switch self {
        case .nameTaken(let name): "a drawing named '\(name)' exists already: choose another name"
        }
    }
}

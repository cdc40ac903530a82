import ReplicaCore

/// DQL statements built as syntax trees, so store tests do not depend on the parser.
public enum Statements {
    public static let position = DQLPosition(line: 1, column: 1)

    public static func parameter(_ name: String) -> DQLOperand {
        .parameter(name: name, position: position)
    }

    public static func insert(_ policy: DQLConflictPolicy = .fail, into collection: String = "drawings")
        -> DQLStatement
    {
        .insert(DQLInsert(collection: collection, documents: [parameter("doc")], onConflict: policy))
    }

    public static func set(_ path: [String], in collection: String = "drawings") -> DQLStatement {
        .update(
            DQLUpdate(
                collection: collection, actions: [.set(DQLPath(path), parameter("value"))],
                filter: DQLFilter(id: parameter("id"))))
    }

    public static func unset(_ paths: [[String]], in collection: String = "drawings") -> DQLStatement {
        .update(
            DQLUpdate(
                collection: collection, actions: paths.map { .unset(DQLPath($0)) },
                filter: DQLFilter(id: parameter("id"))))
    }

    public static func delete(from collection: String = "drawings") -> DQLStatement {
        .delete(DQLDelete(collection: collection, filter: DQLFilter(id: parameter("id"))))
    }

    public static func select(id: Bool = true, from collection: String = "drawings") -> DQLStatement {
        .select(
            DQLSelect(
                projection: .allFields, collection: collection,
                filter: id ? DQLFilter(id: parameter("id")) : nil))
    }
}

extension ReplicaState {
    /// The visible fields of one document of `drawings`, or nil.
    public func fields(_ id: String) -> [String: DocumentValue]? {
        document(DocumentKey(collection: "drawings", id: id))?.fields
    }

    /// Brings `self` up to date with `other` by the sync path: versions, then changes since them.
    public mutating func pull(from other: ReplicaState, wall: Int64 = 0) throws {
        for collection in Set(other.allDocuments.keys.map(\.collection)) {
            let delta = other.changes(
                collection: collection, documentID: nil,
                since: versions(collection: collection, documentID: nil))
            _ = try apply(delta, wall: wall)
        }
    }
}

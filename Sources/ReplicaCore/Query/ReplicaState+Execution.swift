extension ReplicaState {
    /// Runs one statement. Everything that can be refused is checked before the first write, so a
    /// statement that throws has changed nothing. `wall` (milliseconds) stamps the writes.
    public mutating func execute(
        _ statement: DQLStatement, arguments: [String: DocumentValue] = [:], wall: Int64
    ) throws -> QueryResult {
        switch statement {
        case .select(let select):
            return try self.select(select, arguments: arguments)
        case .insert(let insert):
            let plan = try planInsert(insert, arguments: arguments)
            return withAuthor(wall: wall) { state, author in state.insert(plan, author: &author) }
        case .update(let update):
            let plan = try planUpdate(update, arguments: arguments)
            return withAuthor(wall: wall) { state, author in state.update(plan, author: &author) }
        case .delete(let delete):
            let key = DocumentKey(
                collection: delete.collection, id: try Self.documentID(delete.filter, arguments))
            guard document(key)?.isVisible == true else { return QueryResult() }
            withAuthor(wall: wall) { state, author in
                state.modify(key) { document in ((), document.unset(at: [], author: &author)) }
            }
            return QueryResult(affectedCount: 1, affectedDocumentIDs: [key.id])
        }
    }

    /// The documents a SELECT returns, in `_id` order, each with its `_id`.
    public func select(_ select: DQLSelect, arguments: [String: DocumentValue]) throws -> QueryResult {
        let ids =
            try select.filter.map { [try Self.documentID($0, arguments)] }
            ?? documentIDs(in: select.collection)
        var documents: [[String: DocumentValue]] = []
        for id in ids {
            guard let state = document(DocumentKey(collection: select.collection, id: id)) else { continue }
            var row: [String: DocumentValue]
            switch select.projection {
            case .allFields:
                guard let fields = state.fields else { continue }
                row = fields
            case .fields(let paths):
                guard state.hasFields else { continue }
                row = [:]
                for path in paths where path.components != ["_id"] {
                    if let value = state.value(at: path.components) {
                        Self.place(value, at: path.components[...], in: &row)
                    }
                }
            }
            row["_id"] = .string(id)
            documents.append(row)
        }
        return QueryResult(documents: documents)
    }

    private typealias InsertPlan = [(
        key: DocumentKey, fields: [String: DocumentValue], onlyDifferences: Bool
    )]

    private func planInsert(_ insert: DQLInsert, arguments: [String: DocumentValue]) throws -> InsertPlan {
        var plan: InsertPlan = []
        var seen: Set<String> = []
        for operand in insert.documents {
            guard case .object(var fields) = try Self.resolve(operand, arguments) else {
                throw ReplicaError.invalidValue(
                    reason: "INSERT INTO \(insert.collection) needs an object for each document")
            }
            guard let id = fields.removeValue(forKey: "_id")?.stringValue else {
                throw ReplicaError.invalidValue(
                    reason: "a document inserted into \(insert.collection) needs a string _id")
            }
            let key = DocumentKey(collection: insert.collection, id: id)
            let exists = seen.contains(id) || document(key)?.isVisible == true
            if exists && insert.onConflict == .fail {
                throw ReplicaError.documentExists(collection: insert.collection, id: id)
            }
            seen.insert(id)
            plan.append((key, fields, exists && insert.onConflict == .updateLocalDiff))
        }
        return plan
    }

    private mutating func insert(_ plan: InsertPlan, author: inout LocalAuthor) -> QueryResult {
        var affected: [String] = []
        for (key, fields, onlyDifferences) in plan {
            let wrote = modify(key) { state -> (Bool, [Dot]) in
                let touched = state.assign(
                    .object(fields), at: [], onlyDifferences: onlyDifferences, author: &author)
                return (!touched.isEmpty, touched)
            }
            if wrote && !affected.contains(key.id) { affected.append(key.id) }
        }
        return QueryResult(affectedCount: affected.count, affectedDocumentIDs: affected)
    }

    private enum ResolvedAction {
        case set([String], DocumentValue)
        case unset([String])
    }

    private func planUpdate(
        _ update: DQLUpdate, arguments: [String: DocumentValue]
    ) throws -> (key: DocumentKey, actions: [ResolvedAction])? {
        let key = DocumentKey(
            collection: update.collection, id: try Self.documentID(update.filter, arguments))
        let actions = try update.actions.map { action -> ResolvedAction in
            switch action {
            case .set(let path, let operand):
                try Self.validateWritable(path)
                return .set(path.components, try Self.resolve(operand, arguments))
            case .unset(let path):
                try Self.validateWritable(path)
                return .unset(path.components)
            }
        }
        return document(key)?.isVisible == true ? (key, actions) : nil
    }

    private mutating func update(
        _ plan: (key: DocumentKey, actions: [ResolvedAction])?, author: inout LocalAuthor
    ) -> QueryResult {
        guard let (key, actions) = plan else { return QueryResult() }
        let wrote = modify(key) { state -> (Bool, [Dot]) in
            var touched: [Dot] = []
            for action in actions {
                switch action {
                case .set(let path, let value):
                    touched += state.assign(value, at: path, onlyDifferences: false, author: &author)
                case .unset(let path):
                    touched += state.unset(at: path, author: &author)
                }
            }
            return (!touched.isEmpty, touched)
        }
        return wrote ? QueryResult(affectedCount: 1, affectedDocumentIDs: [key.id]) : QueryResult()
    }

    static func resolve(_ operand: DQLOperand, _ arguments: [String: DocumentValue]) throws -> DocumentValue {
        switch operand {
        case .parameter(let name, _):
            guard let value = arguments[name] else { throw ReplicaError.missingArgument(name: name) }
            return value
        case .string(let text): return .string(text)
        case .number(let number): return .number(number)
        case .bool(let flag): return .bool(flag)
        case .null: return .null
        }
    }

    package static func documentID(_ filter: DQLFilter, _ arguments: [String: DocumentValue]) throws -> String
    {
        guard let id = try resolve(filter.id, arguments).stringValue else {
            throw ReplicaError.invalidValue(reason: "_id in WHERE must be a string")
        }
        return id
    }

    static func validateWritable(_ path: DQLPath) throws {
        if path.components.isEmpty || path.components.contains("") {
            throw ReplicaError.invalidValue(reason: "the path '\(path)' has an empty component")
        }
        if path.components.first == "_id" {
            throw ReplicaError.invalidValue(reason: "_id cannot be changed; insert a new document instead")
        }
    }

    /// Sets (or, with nil, removes) the value at `path`, making the maps on the way. Each level is
    /// taken out of its parent while it changes, so a 10,000-entry map is changed in place rather
    /// than copied.
    static func place(
        _ value: DocumentValue?, at path: ArraySlice<String>, in row: inout [String: DocumentValue]
    ) {
        guard let first = path.first else { return }
        guard path.count > 1 else {
            row[first] = value
            return
        }
        var inner: [String: DocumentValue]
        if case .object(let existing)? = row[first] {
            inner = existing
        } else {
            guard value != nil else { return }
            inner = [:]
        }
        row[first] = nil
        place(value, at: path.dropFirst(), in: &inner)
        row[first] = .object(inner)
    }
}

import JSONText

/// The syntax tree of one statement in the DQL subset that DESIGN.md lists.
///
/// The parser (`DQLParser`) produces it from text; the store executes it. It holds no values of
/// documents: named parameters (`:doc`) are resolved when the statement runs.
public enum DQLStatement: Equatable, Sendable {
    /// `SELECT * | f1, f2 FROM c [WHERE _id = :id]`
    case select(DQLSelect)
    /// `INSERT INTO c DOCUMENTS (:doc) [ON ID CONFLICT DO FAIL | UPDATE | UPDATE_LOCAL_DIFF]`
    case insert(DQLInsert)
    /// ``UPDATE c SET f = :v, ... | UNSET strokes.`key`, ... WHERE _id = :id``
    case update(DQLUpdate)
    /// `DELETE FROM c WHERE _id = :id`
    case delete(DQLDelete)
}

/// A line and column in a statement, both counted from 1 (columns in characters): JSONText's
/// `TextPosition`, which JSON errors use too.
public typealias DQLPosition = TextPosition

/// A field path: `name`, `strokes.key` or ``strokes.`2026-03-25T16:20:14.127Z~3fa2c1` ``.
/// Each component is one map level; backquotes allow any characters in a component.
public struct DQLPath: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var components: [String]

    public init(_ components: [String]) {
        self.components = components
    }

    /// The path as DQL text that parses back to the same path: a component that is not a plain
    /// ASCII identifier, or that is a reserved word, is backquoted.
    public var description: String {
        components.map { component in
            let scalars = component.unicodeScalars
            let plain =
                scalars.first.map { $0 == "_" || ($0.isASCII && $0.properties.isAlphabetic) } == true
                && scalars.allSatisfy {
                    $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
                }
                && !Self.reservedWords.contains(component.uppercased())
            return plain
                ? component
                : "`"
                    + component.split(separator: "`", omittingEmptySubsequences: false).joined(
                        separator: "``") + "`"
        }.joined(separator: ".")
    }

    /// Words the parser reads as keywords wherever they appear in a path.
    static let reservedWords: Set<String> = [
        "SELECT", "FROM", "WHERE", "INSERT", "INTO", "DOCUMENTS", "UPDATE", "SET", "UNSET", "DELETE", "ON",
        "TRUE", "FALSE", "NULL",
    ]
}

/// A value in a statement: a named parameter, resolved from the arguments when the statement
/// runs, or a literal written in the text.
public enum DQLOperand: Equatable, Sendable {
    case parameter(name: String, position: DQLPosition)
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
}

/// `WHERE _id = operand`: the only filter the subset has.
public struct DQLFilter: Equatable, Sendable {
    public var id: DQLOperand

    public init(id: DQLOperand) {
        self.id = id
    }
}

/// What the projection of a SELECT returns.
public enum DQLProjection: Equatable, Sendable {
    case allFields
    case fields([DQLPath])
}

public struct DQLSelect: Equatable, Sendable {
    public var projection: DQLProjection
    public var collection: String
    public var filter: DQLFilter?

    public init(projection: DQLProjection, collection: String, filter: DQLFilter?) {
        self.projection = projection
        self.collection = collection
        self.filter = filter
    }
}

/// What INSERT does when a document with the same `_id` exists.
public enum DQLConflictPolicy: Equatable, Sendable {
    /// Refuse the statement (the default).
    case fail
    /// Rewrite every given field.
    case update
    /// Write only the fields and map entries whose values differ from what is stored.
    case updateLocalDiff
}

public struct DQLInsert: Equatable, Sendable {
    public var collection: String
    /// The operand inside `DOCUMENTS ( ... )`; one or more, comma separated.
    public var documents: [DQLOperand]
    public var onConflict: DQLConflictPolicy

    public init(collection: String, documents: [DQLOperand], onConflict: DQLConflictPolicy) {
        self.collection = collection
        self.documents = documents
        self.onConflict = onConflict
    }
}

/// One action of an UPDATE statement.
public enum DQLUpdateAction: Equatable, Sendable {
    case set(DQLPath, DQLOperand)
    case unset(DQLPath)
}

public struct DQLUpdate: Equatable, Sendable {
    public var collection: String
    /// In the order written; a statement is either SET actions or UNSET actions, never both.
    public var actions: [DQLUpdateAction]
    public var filter: DQLFilter

    public init(collection: String, actions: [DQLUpdateAction], filter: DQLFilter) {
        self.collection = collection
        self.actions = actions
        self.filter = filter
    }
}

public struct DQLDelete: Equatable, Sendable {
    public var collection: String
    public var filter: DQLFilter

    public init(collection: String, filter: DQLFilter) {
        self.collection = collection
        self.filter = filter
    }
}

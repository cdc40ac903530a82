/// Parses the DQL subset that DESIGN.md lists into a `DQLStatement`.
///
/// Hand-written recursive descent, except that nothing in the grammar nests, so no function calls
/// itself: paths and lists are loops, and a statement of any length parses in constant stack.
/// Keywords are case-insensitive. Statement keywords (`SELECT`, `FROM`, `WHERE`, ...) are reserved:
/// backquote them to use them as collection or field names.
public enum DQLParser {
    /// The statement in `text`, or the first syntax error in it, with its line and column.
    public static func parse(_ text: String) throws(DQLSyntaxError) -> DQLStatement {
        var parser = try Parser(text)
        return try parser.statement()
    }
}

/// The parser's state: the lexer and one token of lookahead.
private struct Parser {
    static let reservedWords: Set<String> = [
        "SELECT", "FROM", "WHERE", "INSERT", "INTO", "DOCUMENTS", "UPDATE", "SET", "UNSET",
        "DELETE", "ON", "TRUE", "FALSE", "NULL",
    ]

    var lexer: DQLLexer
    var current: DQLToken

    init(_ text: String) throws(DQLSyntaxError) {
        lexer = DQLLexer(text)
        current = try lexer.next()
    }

    mutating func statement() throws(DQLSyntaxError) -> DQLStatement {
        let statement: DQLStatement
        if try accept(keyword: "SELECT") {
            statement = .select(try select())
        } else if try accept(keyword: "INSERT") {
            statement = .insert(try insert())
        } else if try accept(keyword: "UPDATE") {
            statement = .update(try update())
        } else if try accept(keyword: "DELETE") {
            statement = .delete(try delete())
        } else {
            throw unexpected("SELECT, INSERT, UPDATE or DELETE")
        }
        _ = try accept(symbol: ";")
        guard current.kind == .end else { throw unexpected("end of statement") }
        return statement
    }

    // MARK: Statements

    mutating func select() throws(DQLSyntaxError) -> DQLSelect {
        let projection: DQLProjection
        if try accept(symbol: "*") {
            projection = .allFields
        } else {
            var fields = [try path(expected: "'*' or a field name")]
            while try accept(symbol: ",") {
                fields.append(try path(expected: "a field name"))
            }
            projection = .fields(fields)
        }
        guard try accept(keyword: "FROM") else {
            throw unexpected(projection == .allFields ? "FROM" : "',' or FROM")
        }
        let collection = try identifier(expected: "a collection name")
        var filter: DQLFilter?
        if current.isKeyword("WHERE") {
            filter = try whereClause()
        }
        return DQLSelect(projection: projection, collection: collection, filter: filter)
    }

    mutating func insert() throws(DQLSyntaxError) -> DQLInsert {
        try expect(keyword: "INTO")
        let collection = try identifier(expected: "a collection name")
        try expect(keyword: "DOCUMENTS")
        var documents: [DQLOperand] = []
        repeat {
            try expect(symbol: "(", "'('")
            documents.append(try parameter(expected: "a document parameter such as :doc"))
            try expect(symbol: ")", "')'")
        } while try accept(symbol: ",")
        var policy = DQLConflictPolicy.fail
        if try accept(keyword: "ON") {
            try expect(keyword: "ID")
            try expect(keyword: "CONFLICT")
            try expect(keyword: "DO")
            if try accept(keyword: "FAIL") {
                policy = .fail
            } else if try accept(keyword: "UPDATE") {
                policy = .update
            } else if try accept(keyword: "UPDATE_LOCAL_DIFF") {
                policy = .updateLocalDiff
            } else {
                throw unexpected("FAIL, UPDATE or UPDATE_LOCAL_DIFF")
            }
        }
        return DQLInsert(collection: collection, documents: documents, onConflict: policy)
    }

    mutating func update() throws(DQLSyntaxError) -> DQLUpdate {
        let collection = try identifier(expected: "a collection name")
        var actions: [DQLUpdateAction] = []
        if try accept(keyword: "SET") {
            repeat {
                let target = try path(expected: "a field name")
                try expect(symbol: "=", "'='")
                actions.append(.set(target, try operand()))
            } while try accept(symbol: ",")
        } else if try accept(keyword: "UNSET") {
            repeat {
                actions.append(.unset(try path(expected: "a field name")))
            } while try accept(symbol: ",")
        } else {
            throw unexpected("SET or UNSET")
        }
        guard current.isKeyword("WHERE") else { throw unexpected("',' or WHERE") }
        return DQLUpdate(collection: collection, actions: actions, filter: try whereClause())
    }

    mutating func delete() throws(DQLSyntaxError) -> DQLDelete {
        try expect(keyword: "FROM")
        let collection = try identifier(expected: "a collection name")
        guard current.isKeyword("WHERE") else { throw unexpected("WHERE") }
        return DQLDelete(collection: collection, filter: try whereClause())
    }

    // MARK: Clauses and terms

    /// `WHERE _id = operand`, the only filter the subset has.
    mutating func whereClause() throws(DQLSyntaxError) -> DQLFilter {
        try expect(keyword: "WHERE")
        switch current.kind {
        case .word("_id"), .quotedIdentifier("_id"):
            try advance()
        default:
            throw unexpected("_id (the only field WHERE can test)")
        }
        try expect(symbol: "=", "'='")
        return DQLFilter(id: try operand())
    }

    /// `name(.name)*`. Keywords are reserved after a dot too, although no keyword could follow a
    /// dot: `SELECT a. FROM c` then reports the missing name at `FROM`, not a puzzle at `c`.
    mutating func path(expected: String) throws(DQLSyntaxError) -> DQLPath {
        var components = [try identifier(expected: expected)]
        while try accept(symbol: ".") {
            components.append(try identifier(expected: "a field name after '.'"))
        }
        return DQLPath(components)
    }

    /// A plain word that is not a reserved keyword, or any backquoted name.
    mutating func identifier(expected: String) throws(DQLSyntaxError) -> String {
        switch current.kind {
        case .word(let name) where !Self.reservedWords.contains(DQLToken.uppercasedASCII(name)):
            try advance()
            return name
        case .quotedIdentifier(let name):
            try advance()
            return name
        default:
            throw unexpected(expected)
        }
    }

    mutating func operand() throws(DQLSyntaxError) -> DQLOperand {
        let value: DQLOperand
        switch current.kind {
        case .parameter(let name): value = .parameter(name: name, position: current.position)
        case .string(let text): value = .string(text)
        case .number(let number): value = .number(number)
        case .word where current.isKeyword("TRUE"): value = .bool(true)
        case .word where current.isKeyword("FALSE"): value = .bool(false)
        case .word where current.isKeyword("NULL"): value = .null
        default: throw unexpected("a parameter such as :value, a string, a number, TRUE, FALSE or NULL")
        }
        try advance()
        return value
    }

    mutating func parameter(expected: String) throws(DQLSyntaxError) -> DQLOperand {
        guard case .parameter(let name) = current.kind else { throw unexpected(expected) }
        let value = DQLOperand.parameter(name: name, position: current.position)
        try advance()
        return value
    }

    // MARK: Tokens

    mutating func advance() throws(DQLSyntaxError) {
        current = try lexer.next()
    }

    mutating func accept(keyword: String) throws(DQLSyntaxError) -> Bool {
        guard current.isKeyword(keyword) else { return false }
        try advance()
        return true
    }

    mutating func accept(symbol: Character) throws(DQLSyntaxError) -> Bool {
        guard current.isSymbol(symbol) else { return false }
        try advance()
        return true
    }

    mutating func expect(keyword: String) throws(DQLSyntaxError) {
        guard try accept(keyword: keyword) else { throw unexpected(keyword) }
    }

    mutating func expect(symbol: Character, _ expected: String) throws(DQLSyntaxError) {
        guard try accept(symbol: symbol) else { throw unexpected(expected) }
    }

    func unexpected(_ expected: String) -> DQLSyntaxError {
        .unexpectedToken(expected: expected, found: current.foundDescription, position: current.position)
    }
}

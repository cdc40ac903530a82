import FuzzSupport
import ReplicaCore

/// Fuzzes `DQLParser.parse(_:)` with the input read as UTF-8 text.
///
/// Properties: any text either parses or throws a `DQLSyntaxError` whose position lies inside the
/// text and whose message can be built; every path and collection name in a parsed statement
/// prints (`DQLPath.description`) as DQL that parses back to the same names.
enum FuzzDQL: FuzzTarget {
    static func check(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        let statement: DQLStatement
        do {
            statement = try DQLParser.parse(text)
        } catch {
            checkPosition(of: error, in: text)
            return
        }
        let (collection, paths) = names(in: statement)
        let selectAll = "SELECT * FROM \(DQLPath([collection]))"
        expect(
            (try? DQLParser.parse(selectAll))
                == .select(DQLSelect(projection: .allFields, collection: collection, filter: nil)),
            "collection \(Array(collection.unicodeScalars)) printed as \(selectAll) does not parse back")
        for path in paths {
            let select = "SELECT \(path) FROM c"
            expect(
                (try? DQLParser.parse(select))
                    == .select(DQLSelect(projection: .fields([path]), collection: "c", filter: nil)),
                "path \(path.components.map { Array($0.unicodeScalars) }) printed as \(select) does not parse back"
            )
        }
    }

    /// Lines and columns count from 1, and point at most one past the last character of a line.
    private static func checkPosition(of error: DQLSyntaxError, in text: String) {
        let message = error.description
        let position = error.position
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let lineCount = text.reduce(1) { $1.isNewline ? $0 + 1 : $0 }
        expect(position.line >= 1 && position.line <= lineCount, "line out of range in: \(message)")
        expect(
            position.column >= 1 && position.column <= text.count + 1, "column out of range in: \(message)")
        if lineCount == lines.count, position.line <= lines.count {
            // Only when "\n" is the sole line break can the line be measured this simply.
            expect(
                position.column <= lines[position.line - 1].count + 1,
                "column past the line end in: \(message)")
        }
    }

    private static func names(in statement: DQLStatement) -> (collection: String, paths: [DQLPath]) {
        switch statement {
        case .select(let select):
            if case .fields(let paths) = select.projection { return (select.collection, paths) }
            return (select.collection, [])
        case .insert(let insert):
            return (insert.collection, [])
        case .update(let update):
            return (
                update.collection,
                update.actions.map { action in
                    switch action {
                    case .set(let path, _), .unset(let path): path
                    }
                }
            )
        case .delete(let delete):
            return (delete.collection, [])
        }
    }
}

#if !FUZZING
    @main extension FuzzDQL {}
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDQL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzDQL.testOneInput(data, size)
}

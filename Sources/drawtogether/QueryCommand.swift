import ReplicaCore

/// `drawtogether query 'DQL' [--args JSON]`: one statement against the replica, printed as JSON.
///
/// A SELECT reads the replica even while an instance has it open. A mutation needs the replica's
/// writer lock, so it runs only while no instance holds it (the error says which process does).
enum QueryCommand {
    enum QueryError: Error, CustomStringConvertible {
        case badArguments(String)
        case syntax(DQLSyntaxError)

        var description: String {
            switch self {
            case .badArguments(let reason): return "--args: \(reason)"
            case .syntax(let error): return "the statement has a syntax error at \(error)"
            }
        }
    }

    static func run(configuration: Configuration, statement text: String, argumentsJSON: String?) throws
        -> Int32
    {
        let statement: DQLStatement
        do {
            statement = try DQLParser.parse(text)
        } catch {
            throw QueryError.syntax(error)
        }
        let arguments = try parseArguments(argumentsJSON)
        let location = configuration.replicaLocation
        if case .select = statement {
            let result = try location.openForReading().execute(statement, arguments: arguments)
            try CommandOutput.printStandardOutput(
                DocumentValue.array(result.documents.map { .object($0) }).jsonString(pretty: true) + "\n")
        } else {
            let result = try location.openPrimaryForWriting().execute(statement, arguments: arguments)
            let summary: [String: DocumentValue] = [
                "affected": .number(Double(result.affectedCount)),
                "ids": .array(result.affectedDocumentIDs.map { .string($0) }),
            ]
            try CommandOutput.printStandardOutput(
                DocumentValue.object(summary).jsonString(pretty: true) + "\n")
        }
        return 0
    }

    private static func parseArguments(_ json: String?) throws -> [String: DocumentValue] {
        guard let json else { return [:] }
        let value: DocumentValue
        do {
            value = try DocumentValue(json: json)
        } catch {
            throw QueryError.badArguments("\(error)")
        }
        guard case .object(let arguments) = value else {
            throw QueryError.badArguments(
                "expected a JSON object of named parameters, like '{\"id\": \"drawing-1\"}'")
        }
        return arguments
    }
}

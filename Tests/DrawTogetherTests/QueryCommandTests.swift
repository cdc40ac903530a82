import Foundation
import ReplicaCore
import ReplicaStore
import TestSupport
import Testing

@Suite struct QueryCommandTests {
    let binary = BuiltProducts.executable("drawtogether")

    func run(_ arguments: [String], store: TemporaryDirectory) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        for name in [
            "DRAWTOGETHER_STORE", "DRAWTOGETHER_TOKEN", "DRAWTOGETHER_SERVER_URL", "DRAWTOGETHER_DATABASE_ID",
        ] {
            environment[name] = nil
        }
        return try runProcess(
            binary, arguments + ["--store", store.path], environment: environment,
            currentDirectory: store.path)
    }

    @Test func insertThenSelectAndListThroughTheRealStore() throws {
        let store = try TemporaryDirectory()
        let insert = try run(
            [
                "query", "INSERT INTO drawings DOCUMENTS (:doc)",
                "--args", #"{"doc": {"_id": "d1", "name": "Design notes", "strokes": {"k": "v"}}}"#,
            ],
            store: store)
        #expect(insert.status == 0)
        #expect(insert.standardOutput.contains(#""affected": 1"#))

        let select = try run(
            ["query", "SELECT _id, name FROM drawings WHERE _id = :id", "--args", #"{"id": "d1"}"#],
            store: store)
        #expect(select.status == 0)
        let value = try DocumentValue(json: select.standardOutput)
        #expect(value == .array([.object(["_id": .string("d1"), "name": .string("Design notes")])]))

        let list = try run(["list"], store: store)
        #expect(list.status == 0)
        #expect(
            list.standardOutput.split(separator: "\n").last?.split(
                separator: " ", omittingEmptySubsequences: true)
                == ["d1", "Design", "notes", "1", "?"])  // no instance runs: who is on it is not known
    }

    @Test func aSyntaxErrorSaysWhereAndExitsNonZero() throws {
        let store = try TemporaryDirectory()
        let result = try run(["query", "SELECT * FORM drawings"], store: store)
        #expect(result.status == 1)
        #expect(result.standardError.contains("line 1, column 10"))
    }

    @Test func argumentsMustBeAJSONObject() throws {
        let store = try TemporaryDirectory()
        let result = try run(["query", "SELECT * FROM drawings", "--args", "[1, 2"], store: store)
        #expect(result.status == 1)
        #expect(result.standardError.contains("--args"))
    }

    @Test func selectWorksWhileAnotherProcessHoldsTheReplicaAndAMutationIsRefused() throws {
        let store = try TemporaryDirectory()
        let directory = store.path + "/default/replica-1"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let holder = try Replica(directory: directory)
        try holder.execute(
            "INSERT INTO drawings DOCUMENTS (:doc)",
            arguments: [
                "doc": .object(["_id": .string("held"), "name": .string("Held"), "strokes": .object([:])])
            ])

        let select = try run(["query", "SELECT _id FROM drawings"], store: store)
        #expect(select.status == 0)
        #expect(select.standardOutput.contains("held"))

        let delete = try run(
            ["query", "DELETE FROM drawings WHERE _id = :id", "--args", #"{"id": "held"}"#], store: store)
        #expect(delete.status == 1)
        #expect(delete.standardError.contains("\(getpid())"))
        withExtendedLifetime(holder) {}
    }

    @Test func readingAStoreThatHasNoReplicaYetSaysWhatToDo() throws {
        let store = try TemporaryDirectory()
        let result = try run(["list"], store: store)
        #expect(result.status == 1)
        #expect(result.standardError.contains("drawtogether open"))
    }
}

import ReplicaCore
import ReplicaStore
import TestSupport
import Testing

/// The text entry points: DQL as the coordinator and `drawtogether query` write it.
@Suite struct ReplicaTextStatementTests {
    @Test func coordinatorFlushAsTextIsOneTransaction() throws {
        let directory = try TemporaryDirectory()
        let replica = try Replica(
            directory: directory.path, configuration: ManualClock().configuration(peer: 7))
        var results: [QueryResult] = []
        let token = try replica.observe(
            "SELECT * FROM drawings WHERE _id = :id", arguments: ["id": .string("drawing-1")]
        ) {
            results.append($0)
        }
        let key = "2026-03-25T16:20:14.127Z~3fa2c1"
        try replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE_LOCAL_DIFF",
            arguments: [
                "doc": .object([
                    "_id": .string("drawing-1"),
                    "strokes": .object([key: .string("AAAA"), "b": .string("BB")]),
                ])
            ])
        try replica.write { tx in
            try tx.execute(
                "UPDATE drawings UNSET strokes.`\(key)` WHERE _id = :id",
                arguments: ["id": .string("drawing-1")])
            try tx.execute(
                "UPDATE drawings SET name = :name WHERE _id = :id",
                arguments: ["id": .string("drawing-1"), "name": .string("Notes")])
        }
        #expect(results.count == 3)
        #expect(
            results.last?.documents == [
                [
                    "_id": .string("drawing-1"), "name": .string("Notes"),
                    "strokes": .object(["b": .string("BB")]),
                ]
            ])
        #expect(throws: DQLSyntaxError.self) { try replica.execute("SELEKT * FROM drawings") }
        withExtendedLifetime(token) {}
    }
}

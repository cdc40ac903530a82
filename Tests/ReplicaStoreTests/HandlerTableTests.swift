import TestSupport
import Testing

@testable import ReplicaStore

/// The table of a replica's observers and commit handlers: in the order they were registered,
/// each found by its id, replaced in place, cancelled by setting nil (an unknown id is ignored).
@Suite struct HandlerTableTests {
    @Test func keepsTheOrderOfRegistrationAndFindsEachById() {
        var table = HandlerTable<String>()
        #expect(table.isEmpty)
        #expect(table[0] == nil)
        for id in [0, 2, 3, 7, 8] { table[id] = "h\(id)" }
        #expect(table.entries.map(\.id) == [0, 2, 3, 7, 8])
        for id in [0, 2, 3, 7, 8] { #expect(table[id] == "h\(id)") }
        for id in [1, 4, 9, -1] { #expect(table[id] == nil) }

        table[3] = "replaced"
        #expect(table.entries.map(\.handler) == ["h0", "h2", "replaced", "h7", "h8"])
        table[2] = nil
        table[8] = nil
        table[5] = nil  // never registered: nothing happens
        #expect(table.entries.map(\.id) == [0, 3, 7])
        table[9] = "h9"
        #expect(table.entries.map(\.id) == [0, 3, 7, 9])
        for id in [0, 3, 7, 9] { table[id] = nil }
        #expect(table.isEmpty)
    }

    /// A replica tells its observers, then its commit handlers, each in the order they were
    /// registered, and a cancelled one no more.
    @Test func aReplicaTellsItsHandlersInTheOrderOfRegistration() throws {
        let home = try TemporaryDirectory(prefix: "handler-table")
        let replica = try Replica(directory: home.path + "/replica")
        var told: [String] = []
        let first = replica.onCommit { _ in told.append("first") }
        let second = replica.observeDocument("d", in: "drawings") { _ in told.append("second") }
        let third = replica.onCommit { _ in told.append("third") }
        told.removeAll()  // the document observer's first delivery
        try replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE",
            arguments: ["doc": .object(["_id": .string("d"), "n": .number(1)])])
        #expect(told == ["second", "first", "third"])
        first.cancel()
        told.removeAll()
        try replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE",
            arguments: ["doc": .object(["_id": .string("d"), "n": .number(2)])])
        #expect(told == ["second", "third"])
        withExtendedLifetime((second, third)) {}
    }
}

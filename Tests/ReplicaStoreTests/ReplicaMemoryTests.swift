import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore
@testable import ReplicaStore

/// The page cache a large write or a whole open fills is given back on request, and the replica
/// goes on reading and writing as before (its pages come from the file again).
@Suite struct ReplicaMemoryTests {
    static func document(strokes: Int, tag: String) -> DocumentValue {
        var entries: [String: DocumentValue] = [:]
        for index in 0..<strokes {
            entries["k\(index)"] = .string(String(repeating: tag, count: 200))
        }
        return .object(["_id": .string("d"), "strokes": .object(entries)])
    }

    @Test func cachedPagesAreGivenBackAndTheReplicaGoesOn() throws {
        let directory = try TemporaryDirectory()
        let replica = try Replica(directory: directory.path)
        try replica.execute(Statements.insert(), arguments: ["doc": Self.document(strokes: 3_000, tag: "a")])
        let filled = replica.cachedPageBytes
        #expect(filled > 200_000)
        replica.releaseCachedPages()
        #expect(replica.cachedPageBytes < filled / 4)
        // Writes and reads after it: the pages they need are read from the file again.
        try replica.execute(
            Statements.set(["strokes", "k7"]), arguments: ["id": .string("d"), "value": .string("changed")])
        let shown = try replica.execute(Statements.select(), arguments: ["id": .string("d")]).documents
        let strokes = shown.first?["strokes"]?.objectValue
        #expect(strokes?.count == 3_000)
        #expect(strokes?["k7"] == .string("changed"))
        #expect(strokes?["k8"] == .string(String(repeating: "a", count: 200)))
    }

    @Test func aReopenAfterTheReleaseHoldsEveryCommittedWrite() throws {
        let directory = try TemporaryDirectory()
        do {
            let replica = try Replica(directory: directory.path)
            try replica.execute(
                Statements.insert(), arguments: ["doc": Self.document(strokes: 2_000, tag: "b")])
            replica.releaseCachedPages()
            try replica.execute(
                Statements.set(["strokes", "k1"]), arguments: ["id": .string("d"), "value": .string("after")])
        }
        let reopened = try Replica(directory: directory.path)
        #expect(reopened.cachedPageBytes > 0)
        reopened.releaseCachedPages()
        let strokes = try reopened.execute(Statements.select(), arguments: ["id": .string("d")]).documents
            .first?["strokes"]?.objectValue
        #expect(strokes?.count == 2_000)
        #expect(strokes?["k1"] == .string("after"))
    }
}

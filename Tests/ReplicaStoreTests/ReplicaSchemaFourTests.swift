import Foundation
import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore
@testable import ReplicaStore

/// Schema 4 on disk: a store of schema 3 migrates losing nothing, and a replica killed in the
/// middle of compacting reopens with every committed write.
@Suite struct ReplicaSchemaFourTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/replica-schema-3")

    func count(_ sql: String, in directory: String) throws -> Int64 {
        let connection = try SQLiteConnection(
            path: directory + "/" + ReplicaDatabase.fileName, readOnly: true, busyTimeoutMilliseconds: 1_000)
        return try connection.run(sql).first?.first?.integer ?? -1
    }

    @Test func aStoreOfSchemaThreeOpensWithItsDocumentsAndVersionsAndIsMigrated() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/" + ReplicaDatabase.fileName
        try FileManager.default.copyItem(
            atPath: Self.fixture.appendingPathComponent("replica.sqlite").path, toPath: path)
        let expected = try DocumentValue(
            json: String(contentsOf: Self.fixture.appendingPathComponent("select.json"), encoding: .utf8))
        func documents(_ replica: Replica) throws -> DocumentValue {
            .array(try replica.execute(Statements.select(id: false)).documents.map { .object($0) })
        }
        let old = try Replica.openReadOnly(directory: directory.path)
        #expect(old.database.storedVersion == 3)
        #expect(try documents(old) == expected)
        let versions = try old.versions(collection: "drawings", documentID: nil)
        #expect(versions.vectors.count == 3)  // the deleted drawing's tombstone is kept
        do {
            let migrated = try Replica(directory: directory.path)
            #expect(migrated.database.storedVersion == ReplicaDatabase.schemaVersion)
            #expect(migrated.peerID == old.peerID)
            #expect(try documents(migrated) == expected)
            #expect(try migrated.versions(collection: "drawings", documentID: nil) == versions)
            #expect(migrated.state.allDocuments == old.state.allDocuments)
            #expect(migrated.state.clock.latest >= old.state.clock.latest)
            #expect(try migrated.database.connection.run("PRAGMA auto_vacuum").first?.first?.integer == 2)
            // It writes, checkpoints and reopens like any store of the current schema.
            try migrated.execute(
                Statements.insert(.updateLocalDiff),
                arguments: [
                    "doc": .object(["_id": .string("drawing-2"), "strokes": .object(["k9": .string("new")])])
                ])
            try migrated.checkpoint()
        }
        #expect(try count("SELECT count(*) FROM peer_versions", in: directory.path) == 0)
        let reader = try Replica.openReadOnly(directory: directory.path)
        let strokes = try reader.execute(Statements.select(), arguments: ["id": .string("drawing-2")])
            .documents
            .first?["strokes"]?.objectValue
        #expect(strokes?["k9"] == .string("new"))
        #expect(
            try reader.versions(collection: "drawings", documentID: "drawing-1")
                == DocumentVersions(["drawing-1": versions["drawing-1"]]))
    }

    /// Every commit erases the stroke of ten commits before and a peer holding everything is
    /// recorded, so the writer compacts over and over with one event a snapshot part: the kill
    /// lands in a compaction.
    @Test func everyWriteWhoseCommitReturnedSurvivesSIGKILLInTheMiddleOfACompaction() throws {
        let directory = try TemporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.executable("replica-crash-writer"))
        process.arguments = [directory.path, "--checkpoint-part-events", "1", "--compacting"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let reader = output.fileHandleForReading
        var text = ""
        while text.split(separator: "\n").count < 400 {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        text += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .uncaughtSignal)
        let committed = text.split(separator: "\n", omittingEmptySubsequences: true).dropLast(
            text.hasSuffix("\n") ? 0 : 1
        )
        .compactMap { Int($0) }
        let last = try #require(committed.last)
        #expect(last >= 400)

        let reopened = try Replica(directory: directory.path)
        let strokes =
            try reopened.execute(Statements.select(), arguments: ["id": .string("crash")]).documents.first?[
                "strokes"]?.objectValue ?? [:]
        // The last ten commits' strokes are there (one more commit may have returned unprinted);
        // every earlier one was erased by a committed write and stays erased.
        let missing = ((last - 8)...last).filter { strokes["k\($0)"] != .number(Double($0)) }
        #expect(missing.isEmpty, "committed but lost: \(missing)")
        let resurrected = (1...(last - 11)).filter { strokes["k\($0)"] != nil }
        #expect(resurrected.isEmpty, "erased but back: \(resurrected.prefix(10))")
        // The writer did compact: the snapshot holds a compacted vector and far fewer events
        // than were written.
        let key = DocumentKey(collection: "drawings", id: "crash")
        #expect(reopened.state.document(key)?.compacted.counters.isEmpty == false)
        #expect((reopened.state.document(key)?.events.count ?? 0) < last)
    }
}

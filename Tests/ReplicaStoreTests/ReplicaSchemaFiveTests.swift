import Foundation
import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore
@testable import ReplicaStore

/// Schema 5 on disk: the log keyed by its sequence alone. A store of schema 4 (snapshots, log
/// rows after them, a peer's versions) migrates losing nothing, and the log keeps working: rows
/// of several documents appended, and each document's deleted with its snapshot alone.
@Suite struct ReplicaSchemaFiveTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/replica-schema-4")

    func copyOfTheFixture() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Self.fixture.appendingPathComponent("replica.sqlite").path,
            toPath: directory.path + "/" + ReplicaDatabase.fileName)
        return directory
    }

    func documents(_ replica: Replica) throws -> DocumentValue {
        .array(try replica.execute(Statements.select(id: false)).documents.map { .object($0) })
    }

    func run(_ sql: String, in directory: TemporaryDirectory) throws -> [[SQLiteValue]] {
        let connection = try SQLiteConnection(
            path: directory.path + "/" + ReplicaDatabase.fileName, readOnly: true,
            busyTimeoutMilliseconds: 1_000)
        return try connection.run(sql)
    }

    @Test func aStoreOfSchemaFourOpensWithItsDocumentsVersionsAndPeersAndIsMigrated() throws {
        let directory = try copyOfTheFixture()
        let expected = try DocumentValue(
            json: String(contentsOf: Self.fixture.appendingPathComponent("select.json"), encoding: .utf8))
        let old = try Replica.openReadOnly(directory: directory.path)
        #expect(old.database.storedVersion == 4)
        #expect(try documents(old) == expected)
        let versions = try old.versions(collection: "drawings", documentID: nil)
        let logRows = try run(
            "SELECT sequence, collection, document, record, checksum FROM batches ORDER BY sequence",
            in: directory)
        #expect(logRows.count == 14)
        do {
            let migrated = try Replica(directory: directory.path)
            #expect(migrated.database.storedVersion == 5)
            #expect(migrated.peerID == old.peerID)
            #expect(try documents(migrated) == expected)
            #expect(try migrated.versions(collection: "drawings", documentID: nil) == versions)
            #expect(migrated.state.allDocuments == old.state.allDocuments)
            #expect(migrated.state.clock.latest >= old.state.clock.latest)
            #expect(migrated.peerVersions.peers(seenSince: 0).contains(PeerID(0xFEED)))
            #expect(migrated.storedDocuments == old.storedDocuments)
        }
        // Every row moved as it was, now keyed by its sequence.
        #expect(
            try run(
                "SELECT sequence, collection, document, record, checksum FROM batches ORDER BY sequence",
                in: directory)
                == logRows)
        #expect(
            try run("SELECT sql FROM sqlite_master WHERE name = 'batches'", in: directory).first?.first?.text?
                .contains("sequence INTEGER PRIMARY KEY") == true)
    }

    @Test func aDocumentsSnapshotDeletesItsOwnLogRowsAndNoOthers() throws {
        let directory = try TemporaryDirectory()
        var configuration = ReplicaConfiguration(peerID: PeerID(0xB5))
        configuration.checkpointMinimumLogEvents = .max
        let replica = try Replica(directory: directory.path, configuration: configuration)
        #expect(replica.database.storedVersion == 5)
        // Rows of two documents, interleaved in the log.
        for index in 0..<10 {
            try replica.execute(
                Statements.insert(.updateLocalDiff),
                arguments: [
                    "doc": .object([
                        "_id": .string(index.isMultiple(of: 2) ? "a" : "b"),
                        "strokes": .object(["k\(index)": .number(Double(index))]),
                    ])
                ])
        }
        #expect(try run("SELECT count(*) FROM batches", in: directory).first?.first?.integer == 10)
        // A whole snapshot of "a" alone, as a checkpoint of one document writes it.
        try replica.database.connection.transaction {
            try replica.writeWholeSnapshot(DocumentKey(collection: "drawings", id: "a"))
        }
        #expect(
            try run("SELECT DISTINCT document FROM batches", in: directory).map { $0.first?.text } == ["b"])
        #expect(try run("SELECT count(*) FROM batches", in: directory).first?.first?.integer == 5)
        // Reopened from the snapshot of one and the log of the other, in the order the log holds.
        let reopened = try Replica.openReadOnly(directory: directory.path)
        for (id, keys) in [("a", [0, 2, 4, 6, 8]), ("b", [1, 3, 5, 7, 9])] {
            let strokes = try reopened.execute(Statements.select(), arguments: ["id": .string(id)]).documents
                .first?[
                    "strokes"]?.objectValue
            #expect(strokes?.count == 5)
            #expect(keys.allSatisfy { strokes?["k\($0)"] == .number(Double($0)) })
        }
        #expect(reopened.storedDocuments == replica.storedDocuments)
    }
}

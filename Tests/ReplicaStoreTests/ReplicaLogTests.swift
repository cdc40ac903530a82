import Foundation
import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore
@testable import ReplicaStore

/// Schema 3 on disk: a commit is one log row per document, checkpoints move the log into
/// per-document snapshots a part at a time, and a reopen reads snapshots and the log after them
/// into the same replica, wherever a checkpoint was cut short.
@Suite struct ReplicaLogTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/replica-schema-2")

    /// Snapshot parts of a generation that is not (yet) the document's snapshot.
    static let unfinishedParts =
        "SELECT count(*) FROM snapshot_parts p LEFT JOIN snapshots s USING(collection, document) "
        + "WHERE s.generation IS NULL OR p.generation <> s.generation"

    func count(_ sql: String, in directory: String) throws -> Int64 {
        let connection = try SQLiteConnection(
            path: directory + "/" + ReplicaDatabase.fileName, readOnly: true, busyTimeoutMilliseconds: 1_000)
        return try connection.run(sql).first?.first?.integer ?? -1
    }

    /// Small parts and a low threshold, so a few dozen writes go through several checkpoints.
    func configuration(_ clock: ManualClock, part: Int = 3, minimum: Int = 4) -> ReplicaConfiguration {
        var configuration = clock.configuration(peer: 0xA1)
        configuration.checkpointPartEvents = part
        configuration.checkpointMinimumLogEvents = minimum
        return configuration
    }

    /// Strokes written one transaction each, some overwritten and some removed, in two documents;
    /// after each commit one background step, as the loop runs them when it is idle.
    func writeHistory(_ replica: Replica, clock: ManualClock, strokes: Int) throws {
        for index in 0..<strokes {
            clock.now += 1
            let id = index % 3 == 0 ? "b" : "a"
            try replica.execute(
                Statements.insert(.updateLocalDiff),
                arguments: [
                    "doc": .object([
                        "_id": .string(id), "strokes": .object(["k\(index % 7)": .number(Double(index))]),
                    ])
                ])
            if index % 5 == 4 {
                try replica.execute(
                    Statements.unset([["strokes", "k\(index % 7)"]]), arguments: ["id": .string(id)])
            }
            replica.backgroundStep()
        }
    }

    /// The same commits: the same documents, shown the same, with the same versions. A removed
    /// event may be held by one and not the other, where that other compacted it in memory (a
    /// snapshot's first step compacts; its parts on disk may be unfinished) and only where its
    /// compacted vector covers it.
    func expectSameReplica(_ reopened: Replica, _ original: Replica) throws {
        let documents = (reopened.state.allDocuments, original.state.allDocuments)
        #expect(Set(documents.0.keys) == Set(documents.1.keys))
        for (key, document) in documents.1 {
            let other = try #require(documents.0[key])
            #expect(other.versionVector == document.versionVector)
            #expect(other.value(at: []) == document.value(at: []))
            for (holder, lacker) in [(document, other), (other, document)] {
                for (dot, event) in holder.events where lacker.event(at: dot) != event {
                    #expect(
                        event.isRemoved && lacker.event(at: dot) == nil && lacker.compacted.contains(dot),
                        "\(key.id): \(event) differs and is not a dropped removal")
                }
            }
        }
        #expect(
            try reopened.versions(collection: "drawings", documentID: nil)
                == original.versions(collection: "drawings", documentID: nil))
        #expect(reopened.state.clock.latest >= original.state.clock.latest)
    }

    /// A log row of more events than a reopen decodes at a time (a first flush of a whole
    /// drawing) is loaded a chunk at a time as it is decoded: the same replica, the same counts,
    /// with rows after it that overwrite and remove some of its strokes.
    @Test func aLogRowOfManyChunksReopensAsItWasWritten() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock(1_000)
        let keys = (0..<(2 * ReplicaDatabase.recordChunkEvents + 1_000)).map { "k\($0)" }
        let replica = try Replica(
            directory: directory.path, configuration: clock.configuration(peer: 0xA1))
        try replica.write { transaction in
            _ = try transaction.upsert(
                keys.map { DocumentEntry(path: ["strokes", $0], value: .string("first \($0)")) },
                into: "drawings", id: "a")
        }
        #expect(try count("SELECT count(*) FROM batches", in: directory.path) == 1)
        for index in stride(from: 0, to: keys.count, by: 997) {
            clock.now += 1
            try replica.write { transaction in
                _ = try transaction.upsert(
                    [DocumentEntry(path: ["strokes", keys[index]], value: .string("again"))],
                    into: "drawings",
                    id: "a")
            }
            try replica.execute(
                Statements.unset([["strokes", keys[index + 1]]]), arguments: ["id": .string("a")])
        }
        // A reader loads the log as a reopen does, beside the writer that holds the store.
        let reopened = try Replica.openReadOnly(directory: directory.path)
        try expectSameReplica(reopened, replica)
        #expect(reopened.storedDocuments == replica.storedDocuments)
        let shown = reopened.state.document(DocumentKey(collection: "drawings", id: "a"))?.value(at: [
            "strokes"
        ])
        guard case .object(let strokes)? = shown else {
            Issue.record("no strokes after the reopen")
            return
        }
        #expect(strokes.count == keys.count - (keys.count + 996) / 997)
        #expect(strokes[keys[997]] == .string("again"))
        #expect(
            strokes[keys[2 * ReplicaDatabase.recordChunkEvents]]
                == .string("first \(keys[2 * ReplicaDatabase.recordChunkEvents])"))
    }

    @Test func aTransactionIsOneLogRowPerDocumentItWrote() throws {
        let directory = try TemporaryDirectory()
        let replica = try Replica(directory: directory.path)
        try replica.write { transaction in
            for id in ["a", "b"] {
                let document: DocumentValue = .object([
                    "_id": .string(id), "name": .string(id),
                    "strokes": .object(["k1": .string("1"), "k2": .string("2"), "k3": .string("3")]),
                ])
                try transaction.execute(Statements.insert(), arguments: ["doc": document])
            }
        }
        #expect(try count("SELECT count(*) FROM batches", in: directory.path) == 2)
        #expect(replica.storedDocuments.values.map(\.logEvents).sorted() == [6, 6])
    }

    @Test func aCommitWritesNoSnapshotItLeavesTheWorkForABackgroundStep() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock(1_000)
        let replica = try Replica(directory: directory.path, configuration: configuration(clock))
        for index in 0..<20 {
            clock.now += 1
            try replica.execute(
                Statements.insert(.updateLocalDiff),
                arguments: [
                    "doc": .object(["_id": .string("a"), "strokes": .object(["k\(index)": .number(1)])])
                ])
        }
        #expect(try count("SELECT count(*) FROM snapshot_parts", in: directory.path) == 0)
        #expect(replica.hasBackgroundWork)
        var steps = 0
        while replica.backgroundStep() { steps += 1 }
        // Every event of the document, in parts of 3, a part a step.
        let events = replica.state.document(DocumentKey(collection: "drawings", id: "a"))?.events.count ?? 0
        #expect(events > 20)
        #expect(steps == (events + 2) / 3)
        #expect(!replica.hasBackgroundWork)
        #expect(try count("SELECT count(*) FROM snapshot_parts", in: directory.path) == (events + 2) / 3)
        #expect(try count("SELECT count(*) FROM batches", in: directory.path) == 0)
    }

    @Test func checkpointMovesTheLogIntoSnapshotsThatAReopenReadsAlone() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock(1_000)
        let replica = try Replica(directory: directory.path, configuration: configuration(clock))
        try writeHistory(replica, clock: clock, strokes: 60)
        // The steps between commits ran checkpoints: the log holds less than everything written.
        let logged = try count("SELECT count(*) FROM batches", in: directory.path)
        #expect(logged < 72)
        #expect(try count("SELECT count(*) FROM snapshots", in: directory.path) == 2)
        try replica.checkpoint()
        #expect(try count("SELECT count(*) FROM batches", in: directory.path) == 0)
        #expect(replica.checkpointJob == nil)
        let reader = try Replica.openReadOnly(directory: directory.path)
        try expectSameReplica(reader, replica)
        #expect(reader.storedDocuments.values.allSatisfy { $0.logEvents == 0 && $0.snapshotEvents > 0 })
    }

    @Test func aCheckpointCutShortLeavesAReplicaThatReopensWithEveryCommit() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock(1_000)
        let reader: Replica
        do {
            let writer = try Replica(directory: directory.path, configuration: configuration(clock, part: 1))
            try writeHistory(writer, clock: clock, strokes: 40)
            // A snapshot under way: some of its parts are committed, it is not current yet.
            #expect(writer.checkpointJob != nil)
            #expect(try count(Self.unfinishedParts, in: directory.path) > 0)
            reader = try Replica.openReadOnly(directory: directory.path)
            try expectSameReplica(reader, writer)
        }
        // The next writer discards the unfinished parts when it starts its own snapshot.
        let reopened = try Replica(directory: directory.path, configuration: configuration(clock))
        try expectSameReplica(reopened, reader)
        try reopened.checkpoint()
        #expect(try count(Self.unfinishedParts, in: directory.path) == 0)
        try expectSameReplica(try Replica.openReadOnly(directory: directory.path), reader)
    }

    @Test func aMissingSnapshotPartIsReportedAsDamage() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock(1_000)
        do {
            let replica = try Replica(directory: directory.path, configuration: configuration(clock))
            try writeHistory(replica, clock: clock, strokes: 30)
            try replica.checkpoint()
        }
        let path = directory.path + "/" + ReplicaDatabase.fileName
        do {
            let connection = try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: 1_000)
            try connection.run("DELETE FROM snapshot_parts WHERE part = 1 AND document = 'a'")
        }
        #expect {
            _ = try Replica.openReadOnly(directory: directory.path)
        } throws: { error in
            guard case ReplicaError.damaged(let damaged, let detail) = error else { return false }
            return damaged == path && detail.contains("'drawings/a'") && detail.contains("missing")
        }
    }

    @Test func aDamagedSnapshotPartFailsItsChecksum() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock(1_000)
        do {
            let replica = try Replica(
                directory: directory.path, configuration: configuration(clock, part: 50))
            try writeHistory(replica, clock: clock, strokes: 30)
            try replica.checkpoint()
        }
        let path = directory.path + "/" + ReplicaDatabase.fileName
        do {
            let connection = try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: 1_000)
            let record = try #require(
                try connection.run("SELECT record FROM snapshot_parts WHERE document = 'a'").first?.first?
                    .blob)
            var changed = record
            changed[changed.count / 2] ^= 0x10
            try connection.run("UPDATE snapshot_parts SET record = ? WHERE document = 'a'", [.blob(changed)])
        }
        #expect {
            _ = try Replica(directory: directory.path)
        } throws: { error in
            guard case ReplicaError.damaged(let damaged, let detail) = error else { return false }
            return damaged == path && detail.contains("snapshot of document 'drawings/a'")
                && detail.contains("fails its checksum")
        }
    }

    @Test func aStoreOfSchemaTwoOpensWithItsDocumentsAndVersionsAndIsMigratedToSnapshots() throws {
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
        #expect(old.database.storedVersion == 2)
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
        }
        #expect(try count("SELECT count(*) FROM snapshots", in: directory.path) == 3)
        #expect(
            try count("SELECT count(*) FROM sqlite_master WHERE name = 'events'", in: directory.path) == 0)
        let reader = try Replica.openReadOnly(directory: directory.path)
        #expect(try documents(reader) == expected)
        #expect(reader.state.allDocuments == old.state.allDocuments)
    }
}

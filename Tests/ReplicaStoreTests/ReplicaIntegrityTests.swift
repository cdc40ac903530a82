import Foundation
import Glibc
import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore
@testable import ReplicaStore

/// What a damaged disk or a careless copy can do to the replica file, and what the store does
/// about it: every event row is checksummed, a foreign database is refused untouched, a
/// directory in the way is named, old stores are migrated, modes are tightened.
@Suite struct ReplicaIntegrityTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/replica-schema-1")

    /// A closed replica whose one document holds a long stroke value, and that value's event
    /// record as stored.
    func replicaWithOneLongRecord(seed: UInt64) throws -> (TemporaryDirectory, record: [UInt8]) {
        let directory = try TemporaryDirectory()
        var generator = SplitMix64(seed: seed)
        let value = String(
            (0..<300).map { _ in Character(Unicode.Scalar(UInt8.random(in: 65...90, using: &generator))) })
        do {
            let replica = try Replica(directory: directory.path)
            let document: DocumentValue = .object([
                "_id": .string("d"), "strokes": .object(["2026-03-25T16:20:14.127Z~3fa2c1": .string(value)]),
            ])
            try replica.execute(Statements.insert(), arguments: ["doc": document])
        }
        let records = try storedRecords(directory.path)
        return (directory, try #require(records.max { $0.count < $1.count }))
    }

    func storedRecords(_ directory: String) throws -> [[UInt8]] {
        let connection = try SQLiteConnection(
            path: directory + "/" + ReplicaDatabase.fileName, readOnly: true, busyTimeoutMilliseconds: 1_000)
        return try connection.run("SELECT record FROM batches UNION ALL SELECT record FROM snapshot_parts")
            .compactMap { $0.first?.blob }
    }

    /// The events held in the snapshot parts and log rows of a store of schema 3.
    func storedEventCount(_ directory: String) throws -> Int {
        try storedRecords(directory).reduce(0) { $0 + (try DocumentEvent.decodeList($1) { _ in }) }
    }

    /// The one offset of `needle` in `haystack`.
    func onlyOffset(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        var found: [Int] = []
        var start = 0
        while start + needle.count <= haystack.count, found.count < 2 {
            if haystack[start] == needle[0], Array(haystack[start..<start + needle.count]) == needle {
                found.append(start)
            }
            start += 1
        }
        return found.count == 1 ? found[0] : nil
    }

    func isChecksumDamage(_ error: any Error, _ path: String) -> Bool {
        guard case ReplicaError.damaged(let damagedPath, let detail) = error else { return false }
        return damagedPath == path && detail.contains("fails its checksum") && "\(error)".contains(path)
    }

    @Test(arguments: 0..<24) func randomOverwritesInsideARecordAreReportedAsDamage(seed: UInt64) throws {
        let (directory, record) = try replicaWithOneLongRecord(seed: seed)
        let path = directory.path + "/" + ReplicaDatabase.fileName
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let offset = try #require(onlyOffset(of: record, in: bytes))
        var generator = SplitMix64(seed: seed &+ 1_000)
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let position = offset + Int.random(in: 0..<record.count, using: &generator)
            bytes[position] ^= UInt8.random(in: 1...255, using: &generator)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try Replica.openReadOnly(directory: directory.path)
        } throws: { isChecksumDamage($0, path) }
        #expect {
            _ = try Replica(directory: directory.path)
        } throws: { isChecksumDamage($0, path) }
    }

    @Test func aStoreOfSchemaOneOpensWithItsDocumentsAndIsMigratedToChecksumsAndSnapshots() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/" + ReplicaDatabase.fileName
        try FileManager.default.copyItem(
            atPath: Self.fixture.appendingPathComponent("replica.sqlite").path, toPath: path)
        let expected = try DocumentValue(
            json: String(contentsOf: Self.fixture.appendingPathComponent("select.json"), encoding: .utf8))
        func documents(_ replica: Replica) throws -> DocumentValue {
            .array(try replica.execute(Statements.select(id: false)).documents.map { .object($0) })
        }
        // Readers read the old schema as it is; the first writer migrates it.
        #expect(try documents(Replica.openReadOnly(directory: directory.path)) == expected)
        do {
            let replica = try Replica(directory: directory.path)
            #expect(try documents(replica) == expected)
            #expect(replica.database.storedVersion == ReplicaDatabase.schemaVersion)
        }
        let connection = try SQLiteConnection(path: path, readOnly: true, busyTimeoutMilliseconds: 1_000)
        #expect(
            try connection.run("PRAGMA user_version").first?.first?.integer
                == Int64(ReplicaDatabase.schemaVersion))
        #expect(
            try connection.run("SELECT count(*) FROM sqlite_master WHERE name = 'events'").first?.first?
                .integer
                == 0)
        #expect(try storedEventCount(directory.path) == 12)
        #expect(try documents(Replica.openReadOnly(directory: directory.path)) == expected)

        // And the migrated rows are checked like new ones.
        let record = try #require(try storedRecords(directory.path).max { $0.count < $1.count })
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let offset = try #require(onlyOffset(of: record, in: bytes))
        bytes[offset + record.count - 1] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try Replica.openReadOnly(directory: directory.path)
        } throws: { isChecksumDamage($0, path) }
    }

    @Test func aForeignDatabaseIsRefusedBeforeAnythingIsWrittenToIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/" + ReplicaDatabase.fileName
        do {
            let foreign = try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: 1_000)
            try foreign.run("CREATE TABLE notes(text TEXT)")
            try foreign.run("INSERT INTO notes VALUES('keep me as I am')")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            _ = try Replica(directory: directory.path)
        } throws: { error in
            guard case ReplicaError.notAReplica(let refused, let reason) = error else { return false }
            return refused == path && reason.contains("another program")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(before[18] == 1 && before[19] == 1)  // still a rollback-journal file, not WAL
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aDirectoryInTheWayOfTheReplicaFileIsNamed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/" + ReplicaDatabase.fileName
        #expect(mkdir(path, 0o700) == 0)
        for open in [
            { _ = try Replica(directory: directory.path) },
            { _ = try Replica.openReadOnly(directory: directory.path) },
        ] {
            #expect {
                try open()
            } throws: { error in
                guard case ReplicaError.notAReplica(let named, let reason) = error else { return false }
                return named == path && reason.contains("it is a directory")
            }
        }
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    @Test func aStoreWithLooserModesIsTightenedOnOpenOnce() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/" + ReplicaDatabase.fileName
        let lock = directory.path + "/" + StoreLock.fileName
        do { _ = try Replica(directory: directory.path) }
        #expect(mode(file) == 0o600)
        #expect(mode(lock) == 0o600)
        chmod(directory.path, 0o755)
        chmod(file, 0o644)
        chmod(lock, 0o666)
        do {
            let replica = try Replica(directory: directory.path)
            #expect(Set(replica.tightenedPaths) == [directory.path, file, lock])
        }
        #expect(mode(directory.path) == 0o700)
        #expect(mode(file) == 0o600)
        #expect(mode(lock) == 0o600)
        #expect(try Replica(directory: directory.path).tightenedPaths.isEmpty)
    }

    /// The checksum is part of the file format: stores written by earlier builds carry values of
    /// this definition (64-bit FNV-1a over length-prefixed fields, integers least significant
    /// byte first), so a faster implementation must give the same numbers.
    @Test func theChecksumIsFNV1aOverTheLengthPrefixedFields() {
        let checksum = EventChecksum.of(
            collection: "drawings", document: "drawing-1", peer: -5, counter: 42, record: [1, 2, 3, 250])
        #expect(checksum == 5_407_587_472_758_180_841)
    }
}

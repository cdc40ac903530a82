import Foundation
import Glibc
import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore
@testable import ReplicaStore

/// The store on disk: reopening, the writer's lock, read-only opens, damaged files, crashes.
@Suite struct ReplicaPersistenceTests {
    static let doc: DocumentValue = .object(["_id": .string("d"), "strokes": .object(["k": .string("v")])])

    @Test func reopeningKeepsDocumentsPeerIDClockAndSubscriptions() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock(5_000)
        var versions = DocumentVersions()
        do {
            let replica = try Replica(
                directory: directory.path, configuration: clock.configuration(peer: 0x1234))
            try replica.execute(Statements.insert(), arguments: ["doc": Self.doc])
            try replica.execute(Statements.unset([["strokes", "k"]]), arguments: ["id": .string("d")])
            try replica.addSubscription(ReplicaSubscription(collection: "drawings", documentID: "d"))
            versions = try replica.versions(collection: "drawings", documentID: nil)
        }
        clock.now = 10  // the wall clock went backwards while the store was closed
        let reopened = try Replica(
            directory: directory.path, configuration: clock.configuration(peer: 0x9999))
        #expect(reopened.peerID == PeerID(0x1234))
        #expect(try reopened.versions(collection: "drawings", documentID: nil) == versions)
        #expect(
            try reopened.execute(Statements.select(id: false)).documents == [
                ["_id": .string("d"), "strokes": .object([:])]
            ])
        #expect(reopened.subscriptions == [ReplicaSubscription(collection: "drawings", documentID: "d")])
        #expect(reopened.state.clock.latest.milliseconds == 5_000)  // never goes back
    }

    @Test func secondWriterIsToldTheStoreIsInUseByThisProcess() throws {
        let directory = try TemporaryDirectory()
        do {
            let first = try Replica(directory: directory.path)
            #expect(throws: ReplicaError.storeInUse(directory: directory.path, holderPID: getpid())) {
                _ = try Replica(directory: directory.path)
            }
            withExtendedLifetime(first) {}
        }
        // Released: the next writer gets it.
        _ = try Replica(directory: directory.path)
    }

    @Test func readOnlyOpenReadsWhileAWriterHoldsTheStoreAndRefusesWrites() throws {
        let directory = try TemporaryDirectory()
        let writer = try Replica(directory: directory.path)
        try writer.execute(Statements.insert(), arguments: ["doc": Self.doc])
        let reader = try Replica.openReadOnly(directory: directory.path)
        #expect(reader.peerID == writer.peerID)
        #expect(try reader.execute(Statements.select(id: false)).documents.count == 1)
        #expect(throws: ReplicaError.readOnly(directory: directory.path)) {
            try reader.execute(Statements.delete(), arguments: ["id": .string("d")])
        }
        withExtendedLifetime(writer) {}
    }

    @Test func readOnlyOpenWorksAfterTheWriterClosed() throws {
        let directory = try TemporaryDirectory()
        do {
            let writer = try Replica(directory: directory.path)
            try writer.execute(Statements.insert(), arguments: ["doc": Self.doc])
        }
        let reader = try Replica.openReadOnly(directory: directory.path)
        #expect(try reader.execute(Statements.select(id: false)).documents.count == 1)
    }

    @Test func damagedFileIsRefusedWithAClearError() throws {
        let directory = try TemporaryDirectory()
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: directory.url.appendingPathComponent(ReplicaDatabase.fileName))
        #expect {
            _ = try Replica(directory: directory.path)
        } throws: { error in
            guard case ReplicaError.notAReplica(let path, _) = error else { return false }
            return path.hasSuffix(ReplicaDatabase.fileName)
        }
    }

    @Test func foreignSQLiteDatabaseIsRefusedAndLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/" + ReplicaDatabase.fileName
        do {
            let foreign = try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: 100)
            try foreign.run("CREATE TABLE notes(text TEXT)")
        }
        #expect(
            throws: ReplicaError.notAReplica(path: path, reason: "it is a SQLite database of another program")
        ) {
            _ = try Replica(directory: directory.path)
        }
    }

    @Test func newerSchemaIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/" + ReplicaDatabase.fileName
        do { _ = try Replica(directory: directory.path) }
        do {
            let connection = try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: 100)
            try connection.run("PRAGMA user_version = 99")
        }
        #expect(
            throws: ReplicaError.unsupportedSchemaVersion(
                path: path, found: 99, supported: ReplicaDatabase.schemaVersion)
        ) {
            _ = try Replica(directory: directory.path)
        }
    }

    @Test func storeIsInWALMode() throws {
        let directory = try TemporaryDirectory()
        let replica = try Replica(directory: directory.path)
        #expect(try replica.database.connection.run("PRAGMA journal_mode").first?.first == .text("wal"))
    }

    /// The second case writes a snapshot part of one event after nearly every commit, so the
    /// kill lands in the middle of a checkpoint; the third checkpoints SQLite's log into the
    /// database file every few commits, so the kill often lands in the middle of one of those.
    @Test(arguments: [[], ["--checkpoint-part-events", "1"], ["--log-checkpoint-pages", "4"]])
    func everyWriteWhoseCommitReturnedSurvivesSIGKILL(options: [String]) throws {
        let directory = try TemporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.executable("replica-crash-writer"))
        process.arguments = [directory.path] + options
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let reader = output.fileHandleForReading
        var text = ""
        while text.split(separator: "\n").count < 300 {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        text += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .uncaughtSignal)
        // Only whole lines were printed after a commit returned.
        let committed = text.split(separator: "\n", omittingEmptySubsequences: true).dropLast(
            text.hasSuffix("\n") ? 0 : 1
        )
        .compactMap { Int($0) }
        #expect(committed.count >= 300)

        let reopened = try Replica(directory: directory.path)  // the lock died with the process
        let strokes =
            try reopened.execute(Statements.select(), arguments: ["id": .string("crash")]).documents.first?[
                "strokes"]?.objectValue ?? [:]
        let missing = committed.filter { strokes["k\($0)"] != .number(Double($0)) }
        #expect(missing.isEmpty, "committed but lost: \(missing.prefix(10))")
    }
}

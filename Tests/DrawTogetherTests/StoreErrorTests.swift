import Foundation
import Glibc
import ReplicaCore
import ReplicaStore
import TestSupport
import Testing

/// A store the app cannot use must say which path and what to do, in one line, and never claim
/// there is "no replica yet" when the store is there but unreadable.
@Suite struct StoreErrorTests {
    let binary = BuiltProducts.executable("drawtogether")
    static let insert = ["query", "INSERT INTO drawings DOCUMENTS (:d)", "--args", #"{"d": {"_id": "a"}}"#]

    func run(_ arguments: [String], in directory: TemporaryDirectory, asNobody: Bool = false) throws
        -> ProcessResult
    {
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("DRAWTOGETHER_") }
        // Root reads everything whatever the permissions, so the permission test drops to nobody.
        if asNobody && geteuid() == 0 {
            return try runProcess(
                "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + arguments,
                environment: environment, currentDirectory: directory.path)
        }
        return try runProcess(binary, arguments, environment: environment, currentDirectory: directory.path)
    }

    /// One line, no Foundation or SQLite internals.
    func expectOneCleanLine(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 1, sourceLocation: sourceLocation)
        #expect(result.standardError.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
        for leak in ["NSCocoaErrorDomain", "Error Domain", "SQLite error", "while running"] {
            #expect(!result.standardError.contains(leak), sourceLocation: sourceLocation)
        }
    }

    @Test func aStoreThatIsAFileIsNamedByEveryCommand() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/store"
        try "not a directory".write(toFile: file, atomically: true, encoding: .utf8)
        for arguments in [
            ["list"], ["export", "a", "--format", "text"], ["query", "SELECT * FROM drawings"],
        ] {
            let result = try run(arguments + ["--store", file], in: directory)
            expectOneCleanLine(result)
            #expect(
                result.standardError.contains(
                    "cannot read the store at \(file): it is a file, not a directory"))
            #expect(!result.standardError.contains("no replica"))
        }
        let write = try run(Self.insert + ["--store", file], in: directory)
        expectOneCleanLine(write)
        #expect(
            write.standardError.contains(
                "cannot create the replica directory \(file)/default/replica-1 (at \(file))"))
        #expect(write.standardError.contains("move the file away, or choose another store with --store"))
    }

    @Test func aStoreBelowAFileNamesThePathThatIsAFile() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/file"
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        let list = try run(["list", "--store", file + "/store"], in: directory)
        expectOneCleanLine(list)
        #expect(
            list.standardError.contains("cannot read the store at \(file): it is a file, not a directory"))
    }

    @Test func onlyAStoreThatDoesNotExistHasNoReplicaYet() throws {
        let directory = try TemporaryDirectory()
        let list = try run(["list", "--store", directory.path + "/missing"], in: directory)
        expectOneCleanLine(list)
        #expect(list.standardError.contains("there is no replica for database 'default'"))
    }

    @Test func aStoreInAFolderWithoutPermissionNamesTheFolder() throws {
        let directory = try TemporaryDirectory()
        chmod(directory.path, 0o755)
        let locked = directory.path + "/locked"
        let store = locked + "/store"
        #expect(try run(Self.insert + ["--store", store], in: directory).status == 0)
        chmod(locked, 0)
        defer { chmod(locked, 0o755) }
        let list = try run(["list", "--store", store], in: directory, asNobody: true)
        expectOneCleanLine(list)
        #expect(list.standardError.contains("cannot read the store at \(locked): permission denied"))
        #expect(list.standardError.contains("chmod u+rwx \(locked)"))
        #expect(!list.standardError.contains("no replica"))
        let write = try run(Self.insert + ["--store", locked + "/other"], in: directory, asNobody: true)
        expectOneCleanLine(write)
        #expect(write.standardError.contains("(at \(locked)): permission denied"))
    }

    @Test func aReplicaDamagedInTheMiddleNamesTheFileAndWhatToDo() throws {
        let directory = try TemporaryDirectory()
        let replicaDirectory = directory.path + "/store/default/replica-1"
        try FileManager.default.createDirectory(atPath: replicaDirectory, withIntermediateDirectories: true)
        do {
            let replica = try Replica(directory: replicaDirectory)
            try replica.write { transaction in
                for index in 0..<300 {
                    _ = try transaction.execute(
                        "INSERT INTO drawings DOCUMENTS (:d)",
                        arguments: [
                            "d": .object([
                                "_id": .string("d\(index)"),
                                "name": .string(String(repeating: "x", count: 400)),
                            ])
                        ])
                }
            }
        }
        let path = replicaDirectory + "/replica.sqlite"
        #expect(try run(["list", "--store", directory.path + "/store"], in: directory).status == 0)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        let pages = Int(try handle.seekToEnd()) / 4096
        #expect(pages >= 30)
        for page in (pages / 2)..<(pages / 2 + 3) {
            try handle.seek(toOffset: UInt64(page * 4096))
            handle.write(Data(repeating: 0xA5, count: 4096))
        }
        try handle.close()
        let commands = [
            ["list"], ["export", "d1", "--format", "text"], ["query", "SELECT * FROM drawings"], Self.insert,
        ]
        for arguments in commands {
            let result = try run(arguments + ["--store", directory.path + "/store"], in: directory)
            expectOneCleanLine(result)
            #expect(result.standardError.contains("the replica file \(path) is damaged"))
            #expect(result.standardError.contains("move its directory \(replicaDirectory) away"))
        }
    }
}

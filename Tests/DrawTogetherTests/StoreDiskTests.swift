import Foundation
import Glibc
import TestSupport
import Testing

/// A local user and a damaged disk, as the commands meet them: stores private whatever the
/// umask, a read-only store still readable, a full disk or a directory in the way named with
/// the path, a replica file left empty by a creation cut short treated as new.
@Suite struct StoreDiskTests {
    let binary = BuiltProducts.executable("drawtogether")
    static let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("DRAWTOGETHER_") }
    static let insert = [
        "query", "INSERT INTO drawings DOCUMENTS (:d)", "--args", #"{"d": {"_id": "a", "name": "A"}}"#,
    ]

    /// Runs the binary through `sh` after `prelude` (a umask, a file size limit).
    func run(
        _ prelude: String, _ arguments: [String], in directory: TemporaryDirectory, asNobody: Bool = false
    )
        throws -> ProcessResult
    {
        let command =
            asNobody && geteuid() == 0
            ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", binary] : [binary]
        return try runProcess(
            "/bin/sh", ["-c", "trap '' XFSZ; \(prelude) \"$@\"", "sh"] + command + arguments,
            environment: Self.environment, currentDirectory: directory.path)
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    @Test(arguments: ["022", "000"]) func aNewStoreIsPrivateWhateverTheUmask(umask: String) throws {
        let directory = try TemporaryDirectory()
        let store = directory.path + "/store"
        let result = try run("umask \(umask); exec", Self.insert + ["--store", store], in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        for folder in [store, store + "/default", store + "/default/replica-1"] {
            #expect(mode(folder) == 0o700, "\(folder)")
        }
        for file in ["replica.sqlite", "replica.lock"] {
            #expect(mode(store + "/default/replica-1/" + file) == 0o600, "\(file)")
        }
        // A reader (and the WAL and shared-memory files it makes) stays private too.
        let list = try run("umask \(umask); exec", ["list", "--store", store], in: directory)
        #expect(list.status == 0)
        for file in ["replica.sqlite-wal", "replica.sqlite-shm"] {
            let path = store + "/default/replica-1/" + file
            #expect(!FileManager.default.fileExists(atPath: path) || mode(path) == 0o600, "\(file)")
        }
    }

    @Test func aStoreOthersCouldReadIsMadePrivateAndSaidOnce() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path + "/store"
        #expect(try run("exec", Self.insert + ["--store", store], in: directory).status == 0)
        let replica = store + "/default/replica-1"
        chmod(replica, 0o755)
        chmod(replica + "/replica.sqlite", 0o644)
        let first = try run("exec", ["list", "--store", store], in: directory)
        #expect(first.status == 0)
        #expect(first.standardError.contains("other users could read the store; made private (0700/0600)"))
        #expect(first.standardError.contains(replica + "/replica.sqlite"))
        #expect(mode(replica) == 0o700)
        #expect(mode(replica + "/replica.sqlite") == 0o600)
        let second = try run("exec", ["list", "--store", store], in: directory)
        #expect(second.standardError.isEmpty)
    }

    @Test func aReadOnlyStoreIsReadableAndAWriteToItSaysWhy() throws {
        let directory = try TemporaryDirectory()
        chmod(directory.path, 0o755)
        let store = directory.path + "/store"
        #expect(try run("exec", Self.insert + ["--store", store], in: directory).status == 0)
        let replica = store + "/default/replica-1"
        for file in try FileManager.default.contentsOfDirectory(atPath: replica) {
            chmod(replica + "/" + file, 0o444)
        }
        for folder in [replica, store + "/default", store] { chmod(folder, 0o555) }
        defer { for folder in [store, store + "/default", replica] { chmod(folder, 0o755) } }
        let list = try run("exec", ["list", "--store", store], in: directory, asNobody: true)
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.standardOutput.contains("A"))
        let export = try run(
            "exec", ["query", "SELECT * FROM drawings", "--store", store], in: directory, asNobody: true)
        #expect(export.status == 0, "\(export.standardError)")
        #expect(export.standardOutput.contains("\"name\": \"A\""))

        let write = try run("exec", Self.insert + ["--store", store], in: directory, asNobody: true)
        #expect(write.status == 1)
        #expect(write.standardError.split(separator: "\n").count == 1)
        #expect(write.standardError.contains(replica))
        #expect(!write.standardError.contains("SQLite error"))
    }

    @Test func aFullDiskNamesTheReplicaFileAndSavesNothing() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path + "/store"
        #expect(try run("exec", Self.insert + ["--store", store], in: directory).status == 0)
        let big = String(repeating: "x", count: 100_000)
        let insert = [
            "query", "INSERT INTO drawings DOCUMENTS (:d)", "--args",
            #"{"d": {"_id": "b", "name": "\#(big)"}}"#,
        ]
        let result = try run("ulimit -f 96; exec", insert + ["--store", store], in: directory)
        let file = store + "/default/replica-1/replica.sqlite"
        #expect(result.status == 1)
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(
            result.standardError.contains(
                "cannot write the replica file \(file): a write failed (the disk is full, a file size limit"),
            "\(result.standardError)")
        #expect(result.standardError.contains("nothing of this change was saved"))
        #expect(!result.standardError.contains("SQLite error"))
        let list = try run("exec", ["list", "--store", store], in: directory)
        #expect(list.status == 0)
        #expect(!list.standardOutput.contains("\nb "))
    }

    @Test func aDirectoryInTheWayOfTheReplicaFileIsNamed() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path + "/store"
        let file = store + "/default/replica-1/replica.sqlite"
        try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: true)
        for arguments in [["list"], Self.insert] {
            let result = try run("exec", arguments + ["--store", store], in: directory)
            #expect(result.status == 1)
            #expect(result.standardError.split(separator: "\n").count == 1)
            #expect(result.standardError.contains("\(file) is not a DrawTogether replica (it is a directory"))
            #expect(result.standardError.contains("move it away"))
        }
    }

    @Test func anEmptyReplicaFileLeftByACutShortCreationIsNewToReadersAndWriters() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path + "/store"
        let replica = store + "/default/replica-1"
        try FileManager.default.createDirectory(atPath: replica, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: replica + "/replica.sqlite", contents: Data()))
        for storeFlag in [store, replica] {
            let list = try run("exec", ["list", "--store", storeFlag], in: directory)
            #expect(list.status == 1)
            #expect(
                list.standardError.contains("there is no replica for database 'default'"),
                "\(list.standardError)")
            #expect(!list.standardError.contains("not a DrawTogether replica"))
        }
        #expect(try run("exec", Self.insert + ["--store", store], in: directory).status == 0)
        let list = try run("exec", ["list", "--store", store], in: directory)
        #expect(list.status == 0)
        #expect(list.standardOutput.contains("A"))
    }
}

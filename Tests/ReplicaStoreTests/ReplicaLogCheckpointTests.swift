import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore
@testable import ReplicaStore

/// SQLite's write-ahead log is checkpointed into the database file by the replica's idle steps,
/// not inside the commit that makes it long (`WALCheckpointer`); a writer that never idles still
/// keeps it bounded. A low `logCheckpointPages` makes a few dozen commits enough.
@Suite struct ReplicaLogCheckpointTests {
    static let pages = 8

    let directory: TemporaryDirectory
    let replica: Replica

    init() throws {
        directory = try TemporaryDirectory(prefix: "log-checkpoint")
        var configuration = ReplicaConfiguration(peerID: PeerID(0xC4))
        configuration.logCheckpointPages = Self.pages
        // Snapshots only when asked, so the only background work is the log's checkpoint.
        configuration.checkpointMinimumLogEvents = .max
        replica = try Replica(directory: directory.path, configuration: configuration)
    }

    /// One stroke of about 1.5 KB, one transaction: a page or so of the log.
    func write(_ index: Int) throws {
        try replica.execute(
            Statements.insert(.updateLocalDiff),
            arguments: [
                "doc": .object([
                    "_id": .string("drawing"),
                    "strokes": .object(["k\(index)": .string(String(repeating: "x", count: 1_500))]),
                ])
            ])
    }

    var checkpointer: WALCheckpointer { replica.database.checkpointer! }

    /// The log rows the database file holds, read without the log (`immutable`): none while
    /// the log still holds the table's creation too.
    func rowsInTheFileAlone() throws -> Int64 {
        let file = try SQLiteConnection(
            path: directory.path + "/" + ReplicaDatabase.fileName, readOnly: true, immutable: true,
            busyTimeoutMilliseconds: 1_000)
        guard
            try file.run("SELECT count(*) FROM sqlite_master WHERE name = 'batches'").first?.first?.integer
                == 1
        else { return 0 }
        return try file.run("SELECT count(*) FROM batches").first?.first?.integer ?? -1
    }

    @Test func aLongLogIsLeftToTheNextIdleStepWhichCopiesItIntoTheFile() throws {
        var commits = 0
        while !replica.database.isLogCheckpointDue {
            try write(commits)
            commits += 1
            try #require(commits < 200, "the log never grew past \(Self.pages) pages")
        }
        // No commit checkpointed: the file alone holds none of the rows.
        #expect(checkpointer.checkpointsInCommits == 0)
        #expect(checkpointer.pages >= Int32(Self.pages))
        #expect(replica.hasBackgroundWork)
        let before = try rowsInTheFileAlone()

        #expect(replica.backgroundStep())
        #expect(!replica.database.isLogCheckpointDue)
        #expect(!replica.hasBackgroundWork)
        #expect(try rowsInTheFileAlone() == before + Int64(commits))
        // The next commit starts the log again from its beginning.
        try write(commits)
        #expect(checkpointer.pages < Int32(Self.pages))
        #expect(!replica.backgroundStep())
    }

    /// A reader in another process holds the rows it reads in the log: the step copies what it
    /// can, and nothing is due again until the next commit (no checkpoint on every idle turn).
    @Test func aLogAReaderHoldsIsTriedOnceACommitNotOnEveryStep() throws {
        // A short log to start from: the store's creation checkpointed, the next commit restarts it.
        try write(0)
        replica.database.checkpointLog()
        try write(1)
        let reader = try SQLiteConnection(
            path: directory.path + "/" + ReplicaDatabase.fileName, readOnly: true,
            busyTimeoutMilliseconds: 1_000)
        try reader.run("BEGIN")
        #expect(try reader.run("SELECT count(*) FROM batches").first?.first?.integer == 2)
        // Commits after the reader's snapshot, which no checkpoint can copy under it.
        var commits = 2
        repeat {
            try write(commits)
            commits += 1
            try #require(commits < 200, "the log never grew past \(Self.pages) pages")
        } while !replica.database.isLogCheckpointDue
        #expect(checkpointer.checkpointsInCommits == 0)
        #expect(replica.backgroundStep())
        #expect(!replica.hasBackgroundWork)
        #expect(!replica.backgroundStep())
        #expect(try reader.run("SELECT count(*) FROM batches").first?.first?.integer == 2)
        // Nothing committed after the reader's snapshot reached the file.
        let beforeReaderEnds = try rowsInTheFileAlone()
        #expect(beforeReaderEnds <= 2, "the file alone holds \(beforeReaderEnds) rows")

        try reader.run("COMMIT")
        try write(commits)
        commits += 1
        #expect(replica.hasBackgroundWork)
        #expect(replica.backgroundStep())
        #expect(try rowsInTheFileAlone() == Int64(commits))
    }

    @Test func aWriterThatNeverIdlesCheckpointsInItsCommitsPastTwiceTheLength() throws {
        var longest: Int32 = 0
        for index in 0..<120 {
            try write(index)
            longest = max(longest, checkpointer.pages)
        }
        #expect(checkpointer.checkpointsInCommits > 0)
        // One commit past twice the length at most (a commit here adds a page or two).
        #expect(longest < 2 * Int32(Self.pages) + 4)
        let reopened = try reopen()
        #expect(try strokes(in: reopened) == 120)
    }

    @Test func everyCommitSurvivesAReopenWhateverTheLogHeld() throws {
        for index in 0..<50 {
            try write(index)
            if index % 7 == 0 { replica.backgroundStep() }
        }
        let reopened = try reopen()
        #expect(try strokes(in: reopened) == 50)
    }

    @Test func aReadOnlyOpenHasNoCheckpointer() throws {
        try write(0)
        let reader = try Replica.openReadOnly(directory: directory.path)
        #expect(reader.database.checkpointer == nil)
        #expect(!reader.database.isLogCheckpointDue)
        #expect(!reader.backgroundStep())
    }

    /// The store read by a second process's view: a read-only open beside the writer.
    func reopen() throws -> Replica {
        try Replica.openReadOnly(directory: directory.path)
    }

    func strokes(in replica: Replica) throws -> Int {
        try replica.execute(Statements.select(), arguments: ["id": .string("drawing")]).documents.first?[
            "strokes"]?.objectValue?.count ?? 0
    }
}

import EventRuntime
import MonotonicTime
import ReplicaCore
import ReplicaStore
import ReplicaSync
import TestSupport
import Testing

/// `ReplicaIdleSteps` on a manual-time loop over a real store: commits leave the snapshot to the
/// loop, which writes it a part per turn once the commits pause, and a stream of commits
/// postpones it only so long.
@Suite struct ReplicaIdleStepsTests {
    private let loop = ManualEventLoop()
    private let directory: TemporaryDirectory
    private let replica: Replica

    init() throws {
        directory = try TemporaryDirectory(prefix: "idle-steps")
        var configuration = ReplicaConfiguration(peerID: PeerID(0xA1))
        configuration.checkpointPartEvents = 2
        configuration.checkpointMinimumLogEvents = 4
        replica = try Replica(directory: directory.path, configuration: configuration)
    }

    private func write(_ index: Int) throws {
        try replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE",
            arguments: [
                "doc": .object(["_id": .string("drawing-1"), "strokes": .object(["k\(index)": .number(1)])])
            ])
    }

    @Test func aStepRunsOnlyOnceTheCommitsPauseThenOnePartPerTurnUntilDone() throws {
        let steps = ReplicaIdleSteps(replica: replica, loop: loop)
        for index in 0..<6 { try write(index) }
        #expect(replica.hasBackgroundWork)
        #expect(steps.isScheduled)
        // One turn of the loop at a time, as `PollEventLoop` runs them.
        loop.runOnce(maximumWait: .milliseconds(29))
        #expect(steps.stepsRun == 0)
        loop.runOnce(maximumWait: .milliseconds(1))
        #expect(steps.stepsRun == 1)
        // The rest, one part a turn: 7 events in parts of 2.
        loop.runOnce(maximumWait: .zero)
        #expect(steps.stepsRun == 2)
        _ = loop.run(until: { !replica.hasBackgroundWork }, timeout: .seconds(1))
        #expect(steps.stepsRun == 4)
        #expect(!steps.isScheduled)
        // Reopened, it reads the snapshot: nothing is due and nothing was lost.
        let reader = try Replica.openReadOnly(directory: directory.path)
        #expect(
            try reader.execute("SELECT * FROM drawings").documents.first?["strokes"]?.objectValue?.count == 6)
    }

    @Test func aStreamOfCommitsPostponesTheStepAtMostTheMaximumDelay() throws {
        let steps = ReplicaIdleSteps(
            replica: replica, loop: loop, idleDelay: .milliseconds(30), maximumDelay: .milliseconds(100))
        for index in 0..<4 { try write(index) }
        let start = loop.now
        // A commit every 10 ms, each well inside the idle delay of the one before.
        for index in 4..<13 {
            loop.advance(by: .milliseconds(10))
            try write(index)
        }
        #expect(steps.stepsRun == 0)
        loop.runOnce(maximumWait: .milliseconds(9))
        #expect(steps.stepsRun == 0)
        loop.runOnce(maximumWait: .milliseconds(1))
        #expect(steps.stepsRun == 1)
        #expect(loop.now == start + .milliseconds(100))
    }

    /// SQLite's log is checkpointed by the loop too: a store whose only background work is a log
    /// grown past its length gets a step once the commits pause, and has nothing left after it.
    @Test func aLongLogIsCheckpointedByTheLoopOnceTheCommitsPause() throws {
        let logDirectory = try TemporaryDirectory(prefix: "idle-log")
        var configuration = ReplicaConfiguration(peerID: PeerID(0xA2))
        configuration.logCheckpointPages = 4
        configuration.checkpointMinimumLogEvents = .max
        let logged = try Replica(directory: logDirectory.path, configuration: configuration)
        let steps = ReplicaIdleSteps(replica: logged, loop: loop)
        var index = 0
        while !logged.hasBackgroundWork {
            try logged.execute(
                "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE",
                arguments: [
                    "doc": .object([
                        "_id": .string("drawing-1"),
                        "strokes": .object(["k\(index)": .string(String(repeating: "x", count: 1_500))]),
                    ])
                ])
            index += 1
            try #require(index < 100, "the log never grew past 4 pages")
        }
        #expect(steps.isScheduled)
        #expect(loop.run(until: { !logged.hasBackgroundWork }, timeout: .seconds(1)))
        #expect(steps.stepsRun == 1)
        #expect(!steps.isScheduled)
    }

    @Test func nothingIsScheduledWhileNoSnapshotIsDue() throws {
        let steps = ReplicaIdleSteps(replica: replica, loop: loop)
        try write(0)
        #expect(!replica.hasBackgroundWork)
        #expect(!steps.isScheduled)
    }
}

import Foundation
import Glibc
import TestSupport
import Testing

/// `drawtogether sync --once` and `sync` as processes: local discovery between two instances,
/// signals, and the clear failures when there is nothing to talk to.
@Suite struct SyncOnceTests {
    @Test func withNothingListeningItGivesUpAfterTheTimeoutNamingThePeer() throws {
        let home = try TemporaryDirectory(prefix: "sync-home")
        let port = SyncTestSupport.closedPort()
        let result = try runProcess(
            SyncTestSupport.binary,
            [
                "sync", "--once", "--no-discovery", "--peer", "127.0.0.1:\(port)", "--token", "t", "--store",
                home.path + "/s",
            ],
            environment: SyncTestSupport.environment(home: home, extra: ["DRAWTOGETHER_SYNC_TIMEOUT": "1"]))
        #expect(result.status == 1)
        #expect(result.standardError.contains("nothing answered within 1 s"))
        #expect(result.standardError.contains("127.0.0.1:\(port)"))
        #expect(result.standardError.contains("DRAWTOGETHER_SYNC_TIMEOUT"))
    }

    @Test func aLoneInstanceSaysNoOtherInstanceAnswered() throws {
        let home = try TemporaryDirectory(prefix: "sync-home")
        let result = try runProcess(
            SyncTestSupport.binary, ["sync", "--once", "--store", home.path + "/s"],
            environment: SyncTestSupport.environment(home: home, extra: ["DRAWTOGETHER_SYNC_TIMEOUT": "0.5"]))
        #expect(result.status == 1)
        #expect(result.standardError.contains("no other instance of database 'default' answered"))
    }

    @Test func withoutAnythingToSyncWithItSaysSoAtOnce() throws {
        let home = try TemporaryDirectory(prefix: "sync-home")
        let result = try runProcess(
            SyncTestSupport.binary, ["sync", "--once", "--no-discovery", "--store", home.path + "/s"],
            environment: SyncTestSupport.environment(home: home))
        #expect(result.status == 1)
        #expect(result.standardError.contains("nothing to sync with"))
    }

    @Test func aTimeoutThatIsNotANumberIsRefused() throws {
        let home = try TemporaryDirectory(prefix: "sync-home")
        let result = try runProcess(
            SyncTestSupport.binary, ["sync", "--once", "--store", home.path + "/s"],
            environment: SyncTestSupport.environment(home: home, extra: ["DRAWTOGETHER_SYNC_TIMEOUT": "soon"])
        )
        #expect(result.status == 1)
        #expect(result.standardError.contains("DRAWTOGETHER_SYNC_TIMEOUT is 'soon'"))
    }

    @Test func twoInstancesOnOneMachineFindEachOtherAndStopCleanlyOnSIGINT() throws {
        let home = try TemporaryDirectory(prefix: "sync-home")
        let environment = SyncTestSupport.environment(home: home)
        let store = home.path + "/root"
        // The same --store root twice: the running instance holds slot 1, --once takes slot 2.
        try SyncTestSupport.writeStrokes(
            (0..<50).map { "first-\($0)" }, document: "drawing-1", into: store + "/default/replica-1")
        let running = try ChildProcess(
            SyncTestSupport.binary, ["sync", "--store", store], environment: environment)
        #expect(ChildProcess.waitFor { running.standardError.contains("replica ") })

        let once = try runProcess(
            SyncTestSupport.binary, ["sync", "--once", "--store", store], environment: environment)
        #expect(once.status == 0, "\(once.standardError)")
        #expect(once.standardError.contains("replica-2"))
        #expect(once.standardError.contains("over local"))
        #expect(
            SyncTestSupport.strokeCount(
                try SyncTestSupport.drawings(in: store + "/default/replica-2"), document: "drawing-1") == 50)

        running.send(SIGINT)
        #expect(running.waitForExit() == 0)
        #expect(running.standardError.contains("interrupted, saying goodbye"))
    }
}

import Foundation
import TestSupport
import Testing

/// `sync --once` against a relay that refuses it says why once: the event log's line is the
/// report, the failed run adds no copy of it.
@Suite struct SyncOnceRefusalTests {
    @Test func aRefusalIsPrintedOnce() throws {
        let home = try TemporaryDirectory(prefix: "refusal-home")
        let relay = try ChildProcess(
            SyncTestSupport.binary,
            [
                "serve", "--listen", "127.0.0.1:0", "--token", "the right token", "--store",
                home.path + "/relay",
            ],
            environment: SyncTestSupport.environment(home: home))
        #expect(ChildProcess.waitFor { SyncTestSupport.listeningPort(in: relay.standardOutput) != nil })
        let port = try #require(SyncTestSupport.listeningPort(in: relay.standardOutput))
        let result = try runProcess(
            SyncTestSupport.binary,
            [
                "sync", "--once", "--no-discovery", "--server", "tcp://127.0.0.1:\(port)", "--token",
                "a wrong token", "--store", home.path + "/client",
            ],
            environment: SyncTestSupport.environment(home: home))
        #expect(result.status == 1)
        let refusals = result.standardError.split(separator: "\n").filter { $0.contains("refused") }
        #expect(refusals.count == 1, "\(result.standardError)")
        relay.send(SIGTERM)
        _ = relay.waitForExit()
    }
}

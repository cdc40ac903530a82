import Foundation
import Glibc
import TestSupport
import Testing

/// The app given two relays says in its status bar which one it is on, and after that relay is
/// SIGKILLed names the second, where its strokes (the one drawn before and one after) arrive.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct RelayFailoverTerminalTests {
    @Test func theStatusBarNamesTheRelayAndTheNextOneAfterFailover() throws {
        let home = try TemporaryDirectory(prefix: "failover-e2e")
        let token = "a shared secret for the failover test"
        let relayA = try RelayChild(home: home, name: "relay-a", token: token)
        let relayB = try RelayChild(home: home, name: "relay-b", token: token)
        defer {
            relayB.process.send(SIGTERM)
            _ = relayB.process.waitForExit()
        }
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(
            runtimeDirectory: runtime.path,
            extraArguments: ["--no-discovery", "--server", relayA.url, "--server", relayB.url], width: 120,
            environment: ["DRAWTOGETHER_TOKEN": token])
        try app.tmux.waitUntil { $0.last?.contains("relay 127.0.0.1:\(relayA.port) │ in sync") == true }

        try app.drag([(6, 4), (16, 4), (26, 4)])
        #expect(ChildProcess.waitFor { relayA.strokeCount("drawing-1") == 1 })
        relayA.process.send(SIGKILL)
        #expect(relayA.process.waitForExit() == SIGKILL)
        try app.tmux.waitUntil(timeout: .seconds(30)) {
            $0.last?.contains("relay 127.0.0.1:\(relayB.port) │ in sync") == true
        }
        #expect(ChildProcess.waitFor { relayB.strokeCount("drawing-1") == 1 }, "the stroke drawn on A")
        try app.drag([(6, 8), (16, 8), (26, 8)])
        #expect(ChildProcess.waitFor { relayB.strokeCount("drawing-1") == 2 }, "the stroke drawn on B")
        #expect(try app.quit() == 0)
    }
}

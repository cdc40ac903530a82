import Foundation
import TestSupport
import Testing

/// Two app instances joined by direct TCP (`--listen` on one, `--peer` on the other), without
/// local discovery or a relay.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct DirectPeerTerminalTests {
    @Test func whenTheListenerQuitsTheDiallerIsOfflineWithoutAnError() throws {
        let token = ["DRAWTOGETHER_TOKEN": "a token for the direct test"]
        let port = SyncTestSupport.closedPort()
        let runtimeA = try TemporaryDirectory(prefix: "drawtogether-run")
        let runtimeB = try TemporaryDirectory(prefix: "drawtogether-run")
        let a = try AppInstance(
            runtimeDirectory: runtimeA.path,
            extraArguments: ["--no-discovery", "--listen", "127.0.0.1:\(port)"],
            width: 120, environment: token)
        let b = try AppInstance(
            runtimeDirectory: runtimeB.path,
            extraArguments: ["--no-discovery", "--peer", "127.0.0.1:\(port)"],
            width: 120, environment: token)
        for app in [a, b] { try app.tmux.waitUntil { $0.last?.contains("1 peer") == true } }

        #expect(try a.quit() == 0)
        // The bar changes in the same turn as the disconnection a refusal would come from.
        let screen = try b.tmux.waitUntil { screen in
            let bar = screen.last ?? ""
            return bar.contains("no peers") && bar.contains("offline")
        }
        #expect(screen.last?.contains("error") == false, "\(screen.last ?? "")")
        #expect(screen.dropLast().last?.contains("left") == true, "\(screen.joined(separator: "\n"))")
        #expect(try b.quit() == 0)
    }
}

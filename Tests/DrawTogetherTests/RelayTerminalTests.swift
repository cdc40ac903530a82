import Foundation
import Glibc
import ReplicaCore
import TestSupport
import Testing

/// Two app instances that cannot find each other locally (separate runtime directories, no
/// discovery) draw together through a real `drawtogether serve` relay over encrypted TCP.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct RelayTerminalTests {
    let token = "a shared secret for the relay test"

    /// `drawtogether serve` on a free port with its store in `home`, once it listens (else it
    /// throws with what the relay printed).
    static func startRelay(home: TemporaryDirectory, token: String) throws -> (
        process: ChildProcess, port: UInt16
    ) {
        let relay = try ChildProcess(
            SyncTestSupport.binary,
            [
                "serve", "--listen", "127.0.0.1:0", "--token", token, "--store", home.path + "/relay",
            ],
            environment: SyncTestSupport.environment(home: home))
        _ = ChildProcess.waitFor { SyncTestSupport.listeningPort(in: relay.standardOutput) != nil }
        guard let port = SyncTestSupport.listeningPort(in: relay.standardOutput) else {
            relay.send(SIGTERM)
            _ = relay.waitForExit()
            throw RelayNotListening(output: relay.standardOutput)
        }
        return (relay, port)
    }

    struct RelayNotListening: Error {
        var output: String
    }

    @Test func twoTerminalsDrawTogetherThroughTheRelay() throws {
        let home = try TemporaryDirectory(prefix: "relay-e2e")
        let relay = try Self.startRelay(home: home, token: token)
        defer {
            relay.process.send(SIGTERM)
            _ = relay.process.waitForExit()
        }
        let port = relay.port
        let arguments = ["--no-discovery", "--server", "tcp://127.0.0.1:\(port)"]
        let runtimeA = try TemporaryDirectory(prefix: "drawtogether-run")
        let runtimeB = try TemporaryDirectory(prefix: "drawtogether-run")
        let a = try AppInstance(
            runtimeDirectory: runtimeA.path, extraArguments: arguments,
            environment: ["DRAWTOGETHER_TOKEN": token])
        let b = try AppInstance(
            runtimeDirectory: runtimeB.path, extraArguments: arguments,
            environment: ["DRAWTOGETHER_TOKEN": token])
        for app in [a, b] { try app.tmux.waitUntil { $0.last?.contains("1 peer") == true } }

        try a.drag([(6, 4), (16, 4), (26, 4)])
        try b.tmux.waitUntil { screen in [6, 16, 26].allSatisfy { b.hasInk(x: $0, y: 4, in: screen) } }
        // The screen shows A's stroke while it is still being drawn (presence); wait until it is
        // committed in B's replica too, or B could quit without it.
        try b.tmux.waitUntil { _ in AppInstance.hasInk(try b.exportText().standardOutput) }
        // B draws a stroke with the keyboard and quits in the same keystroke batch, well inside
        // the 100 ms debounce: the quit's own flush writes it, and it must still reach A through
        // the relay before B exits.
        // B's name tag ("test-" and its short id) is on A's canvas: its presence, via the relay.
        // (Not the "joined" / "left" message lines, which name B too.)
        func showsTag(_ screen: [String]) -> Bool {
            screen.dropLast().contains {
                $0.contains("test-") && !$0.contains(" joined") && !$0.contains(" left")
            }
        }
        try a.tmux.waitUntil { screen in showsTag(screen) }
        try b.tmux.sendKeys("Space", "j", "j", "j", "Space", "q")
        #expect(try b.waitForExit() == 0)
        // The tag goes with B: the relay forwards the departure. Without it A would keep the tag
        // for its 30 s presence timeout, three times this wait.
        // And A says so, by B's name, not the relay's.
        try a.tmux.waitUntil(timeout: .seconds(10)) { screen in
            !showsTag(screen) && screen.contains { $0.contains("test-") && $0.contains(" left") }
        }
        let second = try b.exportText()
        try a.tmux.waitUntil { _ in try a.exportText().standardOutput == second.standardOutput }
        try a.tmux.waitUntil { screen in (11...14).allSatisfy { a.hasInk(x: 40, y: $0, in: screen) } }
        #expect(try a.quit() == 0)
        let first = try a.exportText()
        #expect(first.standardOutput == second.standardOutput)
        #expect(AppInstance.hasInk(first.standardOutput))
    }

    /// `open NAME` on a fresh store with a relay: the drawing of that name is the relay's, under
    /// another id (created as "sketch", renamed since); it opens with its strokes, and no new
    /// empty drawing of the same name is made beside it. Once it is in the trash, opening it by
    /// name on another fresh store brings it back.
    @Test func openingByNameFindsARelaysDrawingThisStoreDoesNotHold() throws {
        let home = try TemporaryDirectory(prefix: "relay-e2e")
        let relay = try Self.startRelay(home: home, token: token)
        defer {
            relay.process.send(SIGTERM)
            _ = relay.process.waitForExit()
        }
        let port = relay.port
        let arguments = ["--no-discovery", "--server", "tcp://127.0.0.1:\(port)"]
        let runtimeA = try TemporaryDirectory(prefix: "drawtogether-run")
        let a = try AppInstance(
            runtimeDirectory: runtimeA.path, extraArguments: arguments,
            environment: ["DRAWTOGETHER_TOKEN": token])
        try a.tmux.waitUntil { $0.last?.contains("1 peer") == true }
        try a.createDrawing("sketch")
        try a.drag([(6, 4), (16, 4), (26, 4)])
        try a.tmux.sendKeys("o")
        try a.tmux.waitForText("n new")
        try a.tmux.sendKeys("r")
        try a.tmux.sendLiteral(" v2")
        try a.tmux.sendKeys("Enter")
        try a.tmux.waitUntil { $0.last?.hasPrefix(" sketch v2") == true }
        try a.tmux.sendKeys("Escape")  // out of the menu
        try a.tmux.waitUntil { screen in !screen.contains { $0.contains("n new") } }
        #expect(try a.quit() == 0)
        let drawn = try a.exportText("sketch")
        var environment = ProcessInfo.processInfo.environment
        environment["DRAWTOGETHER_STORE"] = nil
        #expect(AppInstance.hasInk(drawn.standardOutput))

        let runtimeB = try TemporaryDirectory(prefix: "drawtogether-run")
        let b = try AppInstance(
            drawing: "sketch v2", runtimeDirectory: runtimeB.path, extraArguments: arguments,
            environment: ["DRAWTOGETHER_TOKEN": token])
        try b.tmux.waitUntil { $0.last?.hasPrefix(" sketch v2") == true }
        try b.tmux.waitUntil { screen in [6, 16, 26].allSatisfy { b.hasInk(x: $0, y: 4, in: screen) } }
        try b.tmux.waitUntil { _ in try b.exportText("sketch").standardOutput == drawn.standardOutput }
        // B goes to drawing-1 and moves "sketch v2" to the trash; a third fresh store opening it
        // by name gets it back, strokes and all, out of the trash for everyone.
        try b.tmux.sendKeys("o")
        try b.tmux.waitForText("n new")
        try b.tmux.sendKeys("Up", "Enter")
        try b.tmux.waitUntil { $0.last?.hasPrefix(" drawing-1") == true }
        try b.tmux.sendKeys("o")
        try b.tmux.waitForText("n new")
        try b.tmux.sendKeys("Down", "d")
        try b.tmux.waitForText("for everyone? y / n")
        try b.tmux.sendKeys("y")
        try b.tmux.waitUntil { screen in !screen.contains { $0.contains("for everyone?") } }
        try b.tmux.sendKeys("Escape")
        try b.tmux.waitUntil { screen in !screen.contains { $0.contains("n new") } }
        func trashedOnTheRelay() throws -> Bool {
            let result = try runProcess(
                AppInstance.binary,
                [
                    "query", "SELECT trashed FROM drawings WHERE _id = 'sketch'", "--store",
                    home.path + "/relay",
                ],
                environment: environment, currentDirectory: home.path)
            guard result.status == 0, case .array(let rows) = try DocumentValue(json: result.standardOutput),
                case .object(let row)? = rows.first
            else { return false }
            if case .number? = row["trashed"] { return true }
            return false
        }
        try b.tmux.waitUntil { _ in try trashedOnTheRelay() }
        let runtimeC = try TemporaryDirectory(prefix: "drawtogether-run")
        let c = try AppInstance(
            drawing: "sketch v2", runtimeDirectory: runtimeC.path, extraArguments: arguments,
            environment: ["DRAWTOGETHER_TOKEN": token])
        try c.tmux.waitUntil { screen in
            screen.last?.hasPrefix(" sketch v2") == true && screen.last?.contains("deleted") == false
                && [6, 16, 26].allSatisfy { c.hasInk(x: $0, y: 4, in: screen) }
        }
        try b.tmux.waitUntil { _ in try !trashedOnTheRelay() }
        #expect(try c.quit() == 0)
        #expect(try b.quit() == 0)
        let ids = try runProcess(
            AppInstance.binary, ["query", "SELECT _id FROM drawings", "--store", b.store.path],
            environment: environment, currentDirectory: b.store.path)
        #expect(ids.status == 0)
        #expect(!ids.standardOutput.contains("sketch v2"))
        #expect(ids.standardOutput.contains("sketch"))
    }
}

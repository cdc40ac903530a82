import Foundation
import TestSupport
import Testing

@testable import drawtogether

@Suite struct DisplayNameOptionTests {
    @Test func nameIsAnOpenFlagAndAnEnvironmentSetting() throws {
        let parsed = try CommandLineArguments.parse(["open", "--name", "alice"])
        #expect(parsed.options.name == "alice")
        #expect(throws: CommandLineError.self) {
            try CommandLineArguments.parse(["list", "--name", "alice"])
        }
        #expect(Configuration.Variable.settings.contains("DRAWTOGETHER_NAME"))
    }
}

@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct DisplayNameEndToEndTests {
    /// `--name` is what the peer shows next to the cursor, and the store keeps it for the next
    /// start without the flag (every instance of the store: one person's terminals).
    @Test func aChosenNameShowsOnThePeerAndIsKeptForTheStore() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let first = try AppInstance(runtimeDirectory: runtime.path, extraArguments: ["--name", "alice"])
        try first.waitUntilReady()
        #expect(try first.quit() == 0)
        // Without the flag now; the viewer, in another store, names itself.
        let alice = try AppInstance(runtimeDirectory: runtime.path, sharing: first.store)
        try alice.waitUntilReady()
        let viewer = try AppInstance(runtimeDirectory: runtime.path, extraArguments: ["--name", "carol"])
        try viewer.waitUntilReady()
        for app in [alice, viewer] { try app.tmux.waitUntil { $0.last?.contains("1 peer") == true } }
        try alice.tmux.mouseMove(x: 20, y: 6)
        try viewer.tmux.waitUntil { $0.count > 6 && $0[6].contains("+alice") }
        try viewer.tmux.mouseMove(x: 30, y: 8)
        try alice.tmux.waitUntil { $0.count > 8 && $0[8].contains("+carol") }
        #expect(try alice.quit() == 0)
        #expect(try viewer.quit() == 0)
    }
}

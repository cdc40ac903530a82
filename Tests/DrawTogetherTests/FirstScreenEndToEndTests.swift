import Foundation
import TestSupport
import Testing

/// What a newcomer sees on the first start.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct FirstScreenEndToEndTests {
    /// A hint names `?`, drawing and quitting until the first stroke; alone on the machine the
    /// status says `alone`, not `offline`, which reads as a fault.
    @Test func theFirstStartShowsTheHintAndSaysAloneUntilTheFirstStroke() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        let screen = try app.tmux.waitUntil { $0.last?.contains("alone") == true }
        #expect(screen.dropLast().last?.contains("? help · drag to draw · q quit") == true, "\(screen)")
        #expect(!screen.joined().contains("offline"))
        try app.drag([(5, 3), (15, 3)])
        try app.tmux.waitUntil { screen in
            app.hasInk(x: 10, y: 3, in: screen) && !screen.joined().contains("drag to draw")
        }
        #expect(try app.quit() == 0)
        // The drawing has a stroke now: the next start shows no hint.
        let again = try AppInstance(runtimeDirectory: runtime.path, sharing: app.store)
        try again.waitUntilReady()
        let reopened = try again.tmux.waitUntil { screen in again.hasInk(x: 10, y: 3, in: screen) }
        #expect(!reopened.joined().contains("drag to draw"))
        #expect(try again.quit() == 0)
    }

    /// A configured peer that cannot be reached is what `offline` means.
    @Test func aConfiguredPeerOutOfReachIsOffline() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(
            runtimeDirectory: runtime.path, extraArguments: ["--no-discovery", "--peer", "127.0.0.1:9"],
            environment: ["DRAWTOGETHER_TOKEN": "a token for the offline test"])
        try app.waitUntilReady()
        try app.tmux.waitUntil { $0.last?.contains("offline") == true }
        #expect(try app.quit() == 0)
    }
}

@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct LastDrawingEndToEndTests {
    /// `drawtogether` with no drawing named reopens the one this store had open last; once that
    /// one is deleted, it opens drawing-1 again.
    @Test func theLastDrawingReopens() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let first = try AppInstance(drawing: nil, runtimeDirectory: runtime.path)
        try first.waitUntilReady()
        #expect(try first.tmux.capture().last?.hasPrefix(" drawing-1 ") == true)
        try first.createDrawing("sketches")
        #expect(try first.quit() == 0)

        let second = try AppInstance(drawing: nil, runtimeDirectory: runtime.path, sharing: first.store)
        try second.waitUntilReady()
        try second.tmux.waitUntil { $0.last?.hasPrefix(" sketches ") == true }
        #expect(try second.quit() == 0)
    }
}

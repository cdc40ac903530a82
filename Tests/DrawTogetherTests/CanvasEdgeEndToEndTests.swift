import Foundation
import TestSupport
import Testing

/// The canvas at its edges in a real terminal (tmux): the status row, a terminal too small to
/// draw in, resizes, the canvas origin, the brush size and the drawings menu.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct CanvasEdgeEndToEndTests {
    /// Polls `drawtogether export` (the replica, not the screen) until it has ink; the app saves
    /// only finished strokes.
    private func waitUntilSaved(_ app: AppInstance, timeout: Duration = .seconds(20)) throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let text = try app.exportText().standardOutput
            if AppInstance.hasInk(text) { return text }
            guard clock.now < deadline else {
                throw TmuxSessionError.timedOut(after: timeout, screen: [text])
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    @Test func aStrokeReleasedOnTheStatusBarIsSavedWhileTheAppRuns() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        // Down column 9 from row 17 onto the status bar (row 23), released there.
        try app.drag((17...23).map { (9, $0) })
        let export = try waitUntilSaved(app)
        let rows = export.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(rows.count >= 23)
        #expect((17...22).allSatisfy { AppInstance.hasInk(rows[$0]) }, "\(export)")
        #expect(try app.quit() == 0)
    }

    @Test func aPressOnTheStatusBarDrawsNothing() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.drag([(30, 23), (30, 20), (40, 20)])
        // A stroke after it: once it shows, the reports before it were handled too.
        try app.drag([(5, 5), (12, 5)])
        let screen = try app.tmux.waitUntil { screen in app.hasInk(x: 9, y: 5, in: screen) }
        #expect(
            !(30...40).contains { app.hasInk(x: $0, y: 20, in: screen) }, "\(screen.joined(separator: "\n"))")
        #expect(try app.quit() == 0)
    }

    @Test func aTooSmallTerminalIgnoresEverythingButQuit() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.tmux.resize(width: 15, height: 5)
        try app.tmux.waitForText("needs 20x6")
        try app.drag([(2, 1), (6, 1), (10, 1)])
        try app.tmux.sendKeys("Space", "l", "l", "l", "Space")
        // q comes after the drag and the keys on the same input, and quitting saves everything.
        #expect(try app.quit() == 0)
        let export = try app.exportText()
        #expect(export.status == 0)
        #expect(!AppInstance.hasInk(export.standardOutput), "\(export.standardOutput)")
    }

    @Test func qQuitsATooSmallTerminalEvenFromTheDrawingsMenusNamePrompt() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.tmux.sendKeys("o")
        try app.tmux.waitForText("n new")
        try app.tmux.sendKeys("n")
        try app.tmux.waitForText("new drawing:")
        try app.tmux.resize(width: 15, height: 5)
        try app.tmux.waitForText("needs 20x6")
        #expect(try app.quit() == 0)
    }

    @Test func theViewComesBackAfterATinyTerminalAndZeroGoesHome() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.drag([(2, 1), (12, 1)])
        try app.tmux.waitUntil { screen in app.hasInk(x: 7, y: 1, in: screen) }
        try app.tmux.mouseMove(x: 60, y: 20)
        // The smallest usable size: the view must scroll to keep the cursor in it.
        try app.tmux.resize(width: 20, height: 6)
        // (Until the app redraws, tmux shows the old screen cut down, ink and all.)
        try app.tmux.waitUntil { screen in
            screen.count == 6 && screen[5].contains("drawing")
                && !(2...12).contains { app.hasInk(x: $0, y: 1, in: screen) }
        }
        try app.tmux.resize(width: 80, height: 24)
        try app.tmux.waitUntil { screen in screen.count == 24 && app.hasInk(x: 7, y: 1, in: screen) }
        try app.tmux.sendKeys("L", "L")
        try app.tmux.waitUntil { screen in !(2...12).contains { app.hasInk(x: $0, y: 1, in: screen) } }
        try app.tmux.sendKeys("0")
        try app.tmux.waitUntil { screen in app.hasInk(x: 7, y: 1, in: screen) }
        #expect(try app.quit() == 0)
    }

    @Test func panningStopsAtTheCanvasOriginSoEveryStrokeIsExported() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.tmux.sendKeys("H", "K", "H", "K", "]")
        // The size key comes last: once the status bar shows it, the pans were handled too.
        try app.tmux.waitUntil { $0.last?.contains("brush ½") == true }
        try app.drag([(2, 1), (12, 1)])
        try app.tmux.waitUntil { screen in app.hasInk(x: 7, y: 1, in: screen) }
        #expect(try app.quit() == 0)
        let rows = try app.exportText().standardOutput.split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count > 1)
        #expect(rows.count > 1 && Array(rows[1].unicodeScalars).count >= 13, "\(rows)")
    }

    @Test func theDrawingsMenuSaysWhyTheOpenDrawingCannotBeDeleted() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.tmux.sendKeys("o")
        try app.tmux.waitForText("n new")
        try app.tmux.sendKeys("d")
        let screen = try app.tmux.waitForText("can't delete the open drawing")
        let bottom = try #require(screen.first { $0.contains("└") }).drop { $0 == " " }
        #expect(bottom.hasSuffix("┘") && bottom.dropFirst().dropLast().allSatisfy { $0 == "─" }, "\(bottom)")
        try app.tmux.sendKeys("Escape")
        _ = try app.tmux.waitUntil { screen in !screen.joined().contains("can't delete") }
        #expect(try app.quit() == 0)
    }
}

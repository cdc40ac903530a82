import Foundation
import TestSupport
import Testing

@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct DrawingsAndPeopleEndToEndTests {
    /// The menu says how many strokes each drawing has and who is on it.
    @Test func theMenuShowsStrokeCountsAndWhoIsOnEachDrawing() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let a = try AppInstance(runtimeDirectory: runtime.path)
        try a.waitUntilReady()
        let b = try AppInstance(runtimeDirectory: runtime.path, sharing: a.store)
        try b.waitUntilReady()
        for app in [a, b] { try app.tmux.waitUntil { $0.last?.contains("1 peer") == true } }
        try a.drag([(5, 5), (15, 5)])
        try a.drag([(5, 8), (15, 8)])
        try b.tmux.waitUntil { screen in
            b.hasInk(x: 10, y: 5, in: screen) && b.hasInk(x: 10, y: 8, in: screen)
        }
        try b.createDrawing("sketches")
        try a.tmux.sendKeys("o")
        try a.tmux.waitUntil { screen in
            screen.contains { $0.contains("> drawing-1 *  (2 strokes)") }
                && screen.contains { $0.contains("sketches  (0 strokes; test-") }
        }
        try a.tmux.sendKeys("Escape")  // q would close the menu, not quit
        try a.tmux.waitUntil { screen in !screen.joined().contains("n new") }
        #expect(try a.quit() == 0)
        #expect(try b.quit() == 0)
    }
}

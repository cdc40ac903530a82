import Foundation
import TestSupport
import Testing

/// Where the cursor is on the canvas, and where the peers are when they are off screen.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct WhereAmIEndToEndTests {
    @Test func theCoordinatesFollowTheCursorAndTheViewOffsetShowsWhenPanned() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path, width: 100)
        try app.waitUntilReady()
        // The cursor starts mid-screen: (50, 11) on a 100x24 screen.
        try app.tmux.waitUntil { $0.last?.contains(" 50,11 ") == true }
        try app.tmux.sendKeys("l", "l", "j")
        try app.tmux.waitUntil { $0.last?.contains(" 52,12 ") == true }
        #expect(try app.tmux.capture().last?.contains("view") == false)
        // Panning right moves the view and the cursor along with it.
        try app.tmux.sendKeys("L")
        let panned = try app.tmux.waitUntil { $0.last?.contains(" view ") == true }
        let bar = panned.last ?? ""
        #expect(!bar.contains(" 52,12 "), "\(bar)")
        #expect(bar.range(of: #" \d+,12 view \d+,0 "#, options: .regularExpression) != nil, "\(bar)")
        try app.tmux.sendKeys("0")
        try app.tmux.waitUntil { $0.last?.contains("view") == false }
        #expect(try app.quit() == 0)
    }

    /// A peer on a wider terminal whose cursor is beyond this one's right edge shows as an arrow
    /// on the edge with its name; `f` goes there.
    @Test func aPeerOutsideTheViewHasAnEdgeMarkerAndFJumpsToIt() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let a = try AppInstance(runtimeDirectory: runtime.path, width: 200)
        try a.waitUntilReady()
        let b = try AppInstance(runtimeDirectory: runtime.path, sharing: a.store, width: 100)
        try b.waitUntilReady()
        for app in [a, b] { try app.tmux.waitUntil { $0.last?.contains("1 peer") == true } }
        try a.tmux.mouseMove(x: 150, y: 6)
        let marked = try b.tmux.waitUntil { screen in screen.count > 6 && screen[6].hasSuffix("→") }
        #expect(marked[6].contains("test-"), "\(marked[6])")
        #expect(!marked.dropLast(2).joined().contains("+test-"))
        try b.tmux.sendKeys("f")
        // The view scrolls just far enough: both cursors on the right edge (this one's `+` on
        // top), the name left of them, no arrow any more.
        try b.tmux.waitUntil { screen in
            screen.last?.contains(" 150,6 view ") == true && screen.count > 6 && screen[6].hasSuffix("+")
                && screen[6].contains("test-")
        }
        #expect(try a.quit() == 0)
        #expect(try b.quit() == 0)
    }
}

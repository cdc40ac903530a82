import Foundation
import TestSupport
import Testing

/// The help and the drawings menu are modal, and the menu works with the mouse.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct OverlayEndToEndTests {
    /// With the help open, `x` (looked up in it) changes no tool, a drag draws nothing, and a
    /// click outside the box closes it.
    @Test func theHelpSwallowsKeysAndDragsAndAClickOutsideClosesIt() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        // Wide enough that the centred box leaves the first columns free.
        let app = try AppInstance(runtimeDirectory: runtime.path, width: 120)
        try app.waitUntilReady()
        try app.tmux.sendKeys("?")
        try app.tmux.waitForText("stroke eraser (whole)")
        try app.tmux.sendKeys("x")
        try app.drag([(1, 2), (3, 2), (6, 2)])  // left of the box, which is centred
        try app.tmux.sendKeys("Escape")
        let closed = try app.tmux.waitUntil { screen in !screen.joined().contains("Keys") }
        #expect(closed.last?.contains(" pen ") == true, "\(closed.last ?? "")")
        #expect(![1, 3, 6].contains { app.hasInk(x: $0, y: 2, in: closed) })
        try app.tmux.sendKeys("?")
        try app.tmux.waitForText("Keys")
        try app.tmux.mousePress(x: 1, y: 1)
        try app.tmux.mouseRelease(x: 1, y: 1)
        try app.tmux.waitUntil { screen in !screen.joined().contains("Keys") }
        #expect(try app.quit() == 0)
    }

    @Test func aClickInTheMenuOpensADrawing() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.createDrawing("second")
        try app.tmux.sendKeys("o")
        let menu = try app.tmux.waitForText("n new")
        let row = try #require(menu.firstIndex { $0.contains("drawing-1") && $0.contains("│") })
        let x = try #require(menu[row].range(of: "drawing-1")).lowerBound.utf16Offset(in: menu[row])
        try app.tmux.mousePress(x: x, y: row)
        try app.tmux.mouseRelease(x: x, y: row)
        try app.tmux.waitUntil { screen in
            screen.last?.hasPrefix(" drawing-1 ") == true && !screen.joined().contains("n new")
        }
        #expect(try app.quit() == 0)
    }
}

import Foundation
import TestSupport
import Testing

/// The wheel, the right and the middle buttons, as SGR reports through ncurses.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct MouseButtonsEndToEndTests {
    @Test func theWheelPansDownAndShiftWheelSideways() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.drag([(10, 8), (20, 8)])
        try app.tmux.waitUntil { app.hasInk(x: 15, y: 8, in: $0) }
        try app.tmux.sendLiteral(TmuxSession.sgrMouse(code: 65, x: 30, y: 5, release: false))  // wheel down
        let down = try app.tmux.waitUntil { $0.last?.contains(" view 0,") == true }
        #expect(!app.hasInk(x: 15, y: 8, in: down))  // the line moved up with the view
        try app.tmux.sendLiteral(TmuxSession.sgrMouse(code: 64, x: 30, y: 5, release: false))  // wheel up
        try app.tmux.waitUntil { $0.last?.contains("view") == false && app.hasInk(x: 15, y: 8, in: $0) }
        try app.tmux.sendLiteral(TmuxSession.sgrMouse(code: 69, x: 30, y: 5, release: false))  // shift, down
        let sideways = try app.tmux.waitUntil {
            $0.last?.contains(",0 ") == true && $0.last?.contains("view") == true
        }
        #expect(sideways.last?.contains(" view 0,0 ") == false, "\(sideways.last ?? "")")
        #expect(try app.quit() == 0)
    }

    /// The right button erases with the mask eraser while held and gives the pen back; the
    /// middle button picks the colour of the ink it is pressed on.
    @Test func theRightButtonErasesAndTheMiddleOnePicksAColour() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.tmux.sendKeys("2")
        try app.tmux.waitUntil { $0.last?.contains("2 red") == true }
        try app.drag([(10, 8), (20, 8), (30, 8)])
        try app.tmux.waitUntil { screen in [10, 20, 30].allSatisfy { app.hasInk(x: $0, y: 8, in: screen) } }
        try app.tmux.sendKeys("1")
        try app.tmux.waitUntil { $0.last?.contains("1 default") == true }

        try app.tmux.sendLiteral(TmuxSession.sgrMouse(code: 2, x: 20, y: 6, release: false))
        try app.tmux.sendLiteral(TmuxSession.sgrMouse(code: 34, x: 20, y: 8, release: false))
        try app.tmux.sendLiteral(TmuxSession.sgrMouse(code: 34, x: 20, y: 10, release: false))
        try app.tmux.sendLiteral(TmuxSession.sgrMouse(code: 2, x: 20, y: 10, release: true))
        let erased = try app.tmux.waitUntil { screen in
            !app.hasInk(x: 20, y: 8, in: screen) && app.hasInk(x: 10, y: 8, in: screen)
                && screen.last?.contains(" pen ") == true
        }
        #expect(app.hasInk(x: 30, y: 8, in: erased))

        try app.tmux.sendLiteral(TmuxSession.sgrMouse(code: 1, x: 12, y: 8, release: false))
        try app.tmux.sendLiteral(TmuxSession.sgrMouse(code: 1, x: 12, y: 8, release: true))
        try app.tmux.waitUntil { $0.last?.contains("2 red") == true && $0.joined().contains("picked red") }
        #expect(try app.quit() == 0)
    }
}

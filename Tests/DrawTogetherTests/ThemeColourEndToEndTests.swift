import Foundation
import TestSupport
import Testing

/// Colours that work on a light and on a dark terminal, read back with `capture-pane -e`.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct ThemeColourEndToEndTests {
    /// Default ink (colour 1) is drawn in each terminal's own foreground, here and on the peer:
    /// never as a fixed white, which a light terminal would not show. A red stroke next to it
    /// shows the reading sees colours at all.
    @Test func defaultInkIsDrawnInTheDefaultForegroundHereAndOnThePeer() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        // Colours on, whatever the environment of the test run (an empty NO_COLOR is unset).
        let colours = ["NO_COLOR": ""]
        let a = try AppInstance(runtimeDirectory: runtime.path, environment: colours)
        try a.waitUntilReady()
        let b = try AppInstance(runtimeDirectory: runtime.path, sharing: a.store, environment: colours)
        try b.waitUntilReady()
        for app in [a, b] { try app.tmux.waitUntil { $0.last?.contains("1 peer") == true } }
        #expect(try a.tmux.capture().last?.contains("1 default") == true)

        try a.drag([(4, 3), (12, 3), (20, 3)])
        try a.tmux.sendKeys("2")
        try a.tmux.waitUntil { $0.last?.contains("2 red") == true }
        try a.drag([(4, 6), (12, 6), (20, 6)])
        for app in [a, b] {
            try app.tmux.waitUntil { screen in
                [4, 12, 20].allSatisfy {
                    app.hasInk(x: $0, y: 3, in: screen) && app.hasInk(x: $0, y: 6, in: screen)
                }
            }
            let styled = try app.tmux.captureStyled()
            // (20 is where A's cursor is: on B it shows in A's own cursor colour.)
            for x in 4...19 {
                #expect(styled[x, 3].foreground == nil, "default ink at \(x),3: \(styled[x, 3])")
                #expect(styled[x, 3].background == nil && !styled[x, 3].reverse)
                #expect(styled[x, 6].foreground == 196, "red at \(x),6: \(styled[x, 6])")
            }
        }
        // A's cursor and name on B: reverse video, so they show on any background.
        try a.tmux.mouseMove(x: 30, y: 9)
        try b.tmux.waitUntil { $0.count > 9 && $0[9].contains("test-") }
        let styled = try b.tmux.captureStyled()
        #expect(styled[30, 9].reverse && styled[31, 9].reverse && styled[31, 9].glyph == "t")
        #expect(try a.quit() == 0)
        #expect(try b.quit() == 0)
    }
}

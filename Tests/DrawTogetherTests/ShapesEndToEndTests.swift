import Foundation
import TestSupport
import Testing

/// The shape, select and colour tools driven as a person would, in two terminals that find each
/// other by local discovery: what one does, the other sees.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct ShapesEndToEndTests {
    /// Two terminals with colours on, whatever the environment of the test run (an empty
    /// NO_COLOR is unset).
    func twoPeers() throws -> (AppInstance, AppInstance, replicaB: String) {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let colours = ["NO_COLOR": ""]
        let a = try AppInstance(runtimeDirectory: runtime.path, environment: colours)
        try a.waitUntilReady()
        let b = try AppInstance(runtimeDirectory: runtime.path, sharing: a.store, environment: colours)
        try b.waitUntilReady()
        for app in [a, b] { try app.tmux.waitUntil { $0.last?.contains("1 peer") == true } }
        return (a, b, a.store.path + "/default/replica-2")
    }

    /// The screen as text, for a failure message.
    func dump(_ app: AppInstance) -> String {
        ((try? app.tmux.capture()) ?? []).joined(separator: "\n")
    }

    @Test func aBoxDrawnInAShowsInBWhileItIsSizedAndOnceDrawn() throws {
        let (a, b, replicaB) = try twoPeers()
        try a.tmux.sendKeys("b")
        try a.tmux.waitUntil { $0.last?.contains("box") == true }
        try a.tmux.mousePress(x: 5, y: 3)
        try a.tmux.mouseDrag(x: 12, y: 6)
        try a.tmux.mouseDrag(x: 20, y: 8)
        // The preview reaches B as presence before anything is stored.
        try b.tmux.waitUntil { screen in
            [(5, 3), (12, 3), (20, 3), (20, 6), (5, 8), (12, 8)].allSatisfy {
                b.hasInk(x: $0.0, y: $0.1, in: screen)
            }
        }
        #expect(!AppInstance.hasInk(try a.exportText(replica: replicaB).standardOutput))
        try a.tmux.mouseRelease(x: 20, y: 8)
        try b.tmux.waitUntil { _ in
            let text = try a.exportText(replica: replicaB)
            return [(5, 3), (20, 3), (5, 8), (20, 8), (12, 3), (5, 5)].allSatisfy {
                ErasureMergeEndToEndTests.exportHasInk(text, x: $0.0, y: $0.1)
            } && !ErasureMergeEndToEndTests.exportHasInk(text, x: 12, y: 5)
        }
        let screen = try b.tmux.capture()
        #expect(b.hasInk(x: 20, y: 6, in: screen) && !b.hasInk(x: 12, y: 5, in: screen), "\(dump(b))")
        #expect(try a.quit() == 0)
        #expect(try b.quit() == 0)
    }

    /// The keyboard alone: `c`, space, move, space draws an ellipse; `=` makes the next box a
    /// square.
    @Test func theKeyboardDrawsAnEllipseAndASquareTheOtherPeerGets() throws {
        let (a, b, replicaB) = try twoPeers()
        try a.tmux.sendKeys("c")
        try a.tmux.waitUntil { $0.last?.contains("ellipse") == true }
        // The cursor starts in the middle (40, 11): 10 right and 4 down from there.
        try a.tmux.sendKeys("Space")
        for _ in 0..<10 { try a.tmux.sendKeys("l") }
        for _ in 0..<4 { try a.tmux.sendKeys("j") }
        try a.tmux.waitUntil { $0.last?.contains("50,15") == true }
        try a.tmux.sendKeys("Space")
        try b.tmux.waitUntil { _ in
            let text = try a.exportText(replica: replicaB)
            // Its left and right ends on the middle row, its top and bottom in the middle column.
            return [(40, 13), (50, 13), (45, 11), (45, 15)].allSatisfy {
                ErasureMergeEndToEndTests.exportHasInk(text, x: $0.0, y: $0.1)
            } && !ErasureMergeEndToEndTests.exportHasInk(text, x: 45, y: 13)
        }
        // = then a box dragged from (10, 3) to (11, 5): two rows high on screen is four columns,
        // so the square's far corner is (14, 5).
        try a.tmux.sendKeys("b", "=")
        try a.tmux.waitUntil { $0.joined().contains("shapes constrained") }
        try a.drag([(10, 3), (11, 5)])
        try b.tmux.waitUntil { _ in
            let text = try a.exportText(replica: replicaB)
            return [(10, 3), (14, 3), (14, 5), (12, 5)].allSatisfy {
                ErasureMergeEndToEndTests.exportHasInk(text, x: $0.0, y: $0.1)
            } && !ErasureMergeEndToEndTests.exportHasInk(text, x: 15, y: 3)
        }
        #expect(try a.quit() == 0)
        #expect(try b.quit() == 0)
    }

    @Test func aSelectionMovedInBMovesInAAndUndoPutsItBack() throws {
        let (a, b, replicaB) = try twoPeers()
        // A draws a line on row 4; B has it (not only shows it: a stroke on its way shows first).
        try a.drag([(5, 4), (12, 4), (20, 4)])
        try b.tmux.waitUntil { _ in
            ErasureMergeEndToEndTests.exportHasInk(try a.exportText(replica: replicaB), x: 12, y: 4)
        }

        // B selects it with a band, then drags it down by 6 rows.
        try b.tmux.sendKeys("s")
        try b.tmux.waitUntil { $0.last?.contains("select") == true }
        try b.drag([(3, 2), (10, 4), (22, 6)])
        try b.tmux.waitUntil { $0[3].contains("╌") }
        try b.drag([(10, 4), (10, 7), (10, 10)])
        do {
            try a.tmux.waitUntil { screen in
                a.hasInk(x: 5, y: 10, in: screen) && a.hasInk(x: 20, y: 10, in: screen)
                    && !a.hasInk(x: 12, y: 4, in: screen)
            }
            // Arrows move it on: two to the right.
            try b.tmux.sendKeys("Right", "Right")
            try a.tmux.waitUntil { screen in
                a.hasInk(x: 22, y: 10, in: screen) && !a.hasInk(x: 5, y: 10, in: screen)
                    && a.hasInk(x: 7, y: 10, in: screen)
            }
            // y duplicates it (two right, one down); Delete then removes the copy.
            try b.tmux.sendKeys("y")
            try a.tmux.waitUntil { screen in
                a.hasInk(x: 7, y: 10, in: screen) && a.hasInk(x: 24, y: 11, in: screen)
            }
            try b.tmux.sendKeys("DC")
            try a.tmux.waitUntil { screen in
                a.hasInk(x: 7, y: 10, in: screen) && !a.hasInk(x: 24, y: 11, in: screen)
            }
            // Undo brings the copy back, and further undos move the line home step by step.
            for _ in 0..<5 { try b.tmux.sendKeys("u") }
            try a.tmux.waitUntil { screen in
                a.hasInk(x: 5, y: 4, in: screen) && a.hasInk(x: 20, y: 4, in: screen)
                    && !a.hasInk(x: 12, y: 10, in: screen) && !a.hasInk(x: 14, y: 11, in: screen)
            }
        } catch {
            Issue.record("A:\n\(dump(a))\nB:\n\(dump(b))")
            throw error
        }
        #expect(try a.quit() == 0)
        #expect(try b.quit() == 0)
    }

    @Test func thePaletteAndTheEyedropperPickColoursAndAPeerSeesTheInk() throws {
        let (a, b, _) = try twoPeers()
        // C opens all 256 colours on the current one (default ink, 15); Right, Down, Enter pick 32.
        try a.tmux.sendKeys("C")
        try a.tmux.waitForText("colour 15 (current)")
        try a.tmux.sendKeys("Right", "Down")
        try a.tmux.waitForText("colour 32 ")
        try a.tmux.sendKeys("Enter")
        try a.tmux.waitUntil { $0.last?.contains("colour #32") == true }
        try a.drag([(5, 4), (20, 4)])
        do {
            try b.tmux.waitUntil { _ in try b.tmux.captureStyled()[12, 4].foreground == 32 }
        } catch {
            let row = try b.tmux.captureStyled().rows.dropFirst(4).first ?? []
            Issue.record("B's row 4: \(row.map { "\($0.glyph)\($0.foreground ?? -9)" })\nA:\n\(dump(a))")
            throw error
        }

        // Another colour, then the eyedropper on the line takes 32 again and gives the pen back.
        try a.tmux.sendKeys("2")
        try a.tmux.waitUntil { $0.last?.contains("2 red") == true }
        try a.tmux.sendKeys("i")
        try a.tmux.waitUntil { $0.last?.contains("eyedropper") == true }
        try a.tmux.mousePress(x: 12, y: 4)
        try a.tmux.mouseRelease(x: 12, y: 4)
        try a.tmux.waitUntil { screen in
            screen.last?.contains("colour #32") == true && screen.last?.contains("pen") == true
                && screen.joined().contains("picked colour #32")
        }
        // A click outside the palette closes it and draws nothing.
        try a.tmux.sendKeys("C")
        try a.tmux.waitForText("colour 32 (current)")
        try a.tmux.mousePress(x: 1, y: 1)
        try a.tmux.mouseRelease(x: 1, y: 1)
        try a.tmux.waitUntil { !$0.joined().contains("(current)") }
        #expect(!a.hasInk(x: 1, y: 1, in: try a.tmux.capture()))
        #expect(try a.quit() == 0)
        #expect(try b.quit() == 0)
    }
}

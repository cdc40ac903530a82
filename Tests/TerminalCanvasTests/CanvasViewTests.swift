import StrokeKit
import TerminalCanvas
import Testing

@Suite struct CanvasViewTests {
    let view = CanvasView(mode: .block)

    @Test func peersShowACursorInTheirColourTheirNameAndTheStrokeTheyAreDrawing() {
        let ana = PeerPresence(
            name: "ana", colour: 46, cursor: CanvasCell(x: 3, y: 1),
            strokeInProgress: [(1, 3), (2, 3), (3, 3), (4, 3)].map { CanvasCell(x: $0.0, y: $0.1) })
        let bob = PeerPresence(name: "bob-the-builder", colour: 201, cursor: CanvasCell(x: 12, y: 4))
        let viewport = CanvasViewport(screenWidth: 14, screenHeight: 6)
        let grid = view.render(Drawing(), viewport: viewport, peers: [ana, bob])
        // Bob's tag, cut to 8 characters, goes to the left: it would not fit on the right.
        #expect(grid.rows == ["", "   +ana", "", " ▄▄▄▄", "    bob-the-+", ""])
        #expect(grid[3, 1] == Cell("+", foreground: 46, attributes: .reverse))
        // The tag is reverse video too, so it shows on a light or dark terminal and over ink.
        #expect(grid[4, 1] == Cell("a", foreground: 46, attributes: [.bold, .reverse]))
        #expect((1...4).allSatisfy { grid[$0, 3].foreground == 46 })
        #expect(grid[12, 4] == Cell("+", foreground: 201, attributes: .reverse))
    }

    @Test func aPeerCursorOverInkKeepsTheGlyphAndAPeerStrokeIsDrawnOverStoredInk() {
        let stored = CanvasFixtures.group(through: [(0, 2), (6, 2)], colour: 33)
        let carol = PeerPresence(
            name: "carol", colour: 208, cursor: CanvasCell(x: 3, y: 2),
            strokeInProgress: [CanvasCell(x: 3, y: 0), CanvasCell(x: 3, y: 2)])
        let viewport = CanvasViewport(screenWidth: 12, screenHeight: 4)
        let grid = view.render(Drawing(groups: [stored]), viewport: viewport, peers: [carol])
        // The tag would hide three cells of the line on its row: it goes to the row above.
        #expect(grid.rows == ["   ▄", "   █carol", "▄▄▄█▄▄▄", ""])
        #expect(grid[3, 2] == Cell("█", foreground: 208, attributes: .reverse))
        #expect(grid[2, 2].foreground == 33)
    }

    @Test func peerNamesCannotWriteControlCharactersIntoTheScreen() {
        let mallory = PeerPresence(name: "\u{1B}[2J\u{7}é", colour: 1, cursor: CanvasCell(x: 0, y: 0))
        #expect(mallory.tag == "?[2J??")
        let grid = view.render(
            Drawing(), viewport: CanvasViewport(screenWidth: 10, screenHeight: 2), peers: [mallory])
        #expect(grid.rows == ["+?[2J??", ""])
    }

    @Test func theLocalCursorIsReverseVideoAndThePlusOnlyOnBlankCells() {
        let stored = CanvasFixtures.group(through: [(0, 1), (4, 1)])
        let document = Drawing(groups: [stored])
        let viewport = CanvasViewport(screenWidth: 8, screenHeight: 4)
        let onInk = view.render(document, viewport: viewport, cursor: CanvasCell(x: 2, y: 1))
        #expect(onInk.rows == ["", "▄▄▄▄▄", "", ""])
        #expect(onInk[2, 1] == Cell("▄", foreground: 33, attributes: .reverse))
        let onBlank = view.render(document, viewport: viewport, cursor: CanvasCell(x: 6, y: 2))
        #expect(onBlank.rows == ["", "▄▄▄▄▄", "      +", ""])
        #expect(onBlank[6, 2].attributes == .reverse)
    }

    @Test func theLastRowIsLeftBlankForTheStatusBar() {
        let underStatus = CanvasFixtures.group(through: [(0, 3), (7, 3)])
        let viewport = CanvasViewport(screenWidth: 8, screenHeight: 4)
        let peer = PeerPresence(name: "dan", colour: 2, cursor: CanvasCell(x: 1, y: 3))
        let grid = view.render(
            Drawing(groups: [underStatus]), viewport: viewport, peers: [peer],
            cursor: CanvasCell(x: 2, y: 3))
        #expect(grid.height == 4)
        #expect(grid.rows == ["", "", "", ""])
        #expect((0..<8).allSatisfy { grid[$0, 3] == .blank })
    }

    @Test func panningShowsAnotherPartOfTheCanvasAndTheCursorKeepsItsScreenPlace() {
        let stored = CanvasFixtures.group(through: [(4, 2), (8, 2)])
        var session = CanvasSession(width: 12, height: 6, groups: [stored], cursor: CanvasCell(x: 1, y: 1))
        #expect(session.screen() == ["", " +", "    ▄▄▄▄▄", "", "", ""])
        session.run(.pan(.right), .pan(.down))
        #expect(session.editor.viewport.origin == CanvasCell(x: 3, y: 1))
        #expect(session.editor.cursor == CanvasCell(x: 4, y: 2))
        #expect(session.screen() == ["", " ▄▄▄▄▄", "", "", "", ""])
        #expect(session.grid()[1, 1].attributes.contains(.reverse))
        // Left twice: the first pan stops at the canvas origin, the second moves nothing.
        session.run(.pan(.left), .pan(.left))
        #expect(session.editor.viewport.origin == CanvasCell(x: 0, y: 1))
        #expect(session.editor.cursor == CanvasCell(x: 1, y: 2))
        #expect(session.screen() == ["", " +  ▄▄▄▄▄", "", "", "", ""])
    }

    @Test func otherGlyphModesRenderTheSameScene() {
        var session = CanvasSession(width: 8, height: 4, mode: .ascii, cursor: CanvasCell(x: 7, y: 0))
        session.mouseStroke([(1, 1), (5, 1)])
        session.run(.pointer(.hover(CanvasCell(x: 7, y: 0))))
        #expect(session.screen() == ["       +", " .....", "", ""])
    }
}

@Suite struct CanvasViewPeerWidthTests {
    /// A peer's stroke in progress is drawn as wide as the peer draws it, not at the tool's
    /// default, so it does not change width when it is committed.
    @Test func aPeersStrokeInProgressIsDrawnAtItsWidth() {
        let cells = (2...9).map { CanvasCell(x: $0, y: 3) }
        func rowsWithInk(width: Double?) -> [Int] {
            let peer = PeerPresence(
                name: "ana", colour: 46, cursor: CanvasCell(x: 0, y: 0), strokeInProgress: cells,
                inkTool: .marker,
                width: width)
            let grid = CanvasView(mode: .block).render(
                Drawing(), viewport: CanvasViewport(screenWidth: 12, screenHeight: 8), peers: [peer])
            return (0..<7).filter { y in (2...9).contains { x in grid[x, y].background == 46 } }
        }
        #expect(rowsWithInk(width: nil) == [3])
        #expect(rowsWithInk(width: 3) == [2, 3, 4])
    }

    /// A tag goes where it hides the least ink, and never onto the status bar row.
    @Test func aTagAvoidsInkAndTheStatusBar() {
        let band = CanvasFixtures.group(through: [(0, 2), (11, 2)], colour: 33)
        let above = CanvasFixtures.group(through: [(0, 1), (11, 1)], colour: 33)
        let dan = PeerPresence(name: "dan", colour: 196, cursor: CanvasCell(x: 3, y: 2))
        let viewport = CanvasViewport(screenWidth: 12, screenHeight: 4)  // canvas rows 0-2
        let grid = CanvasView(mode: .block).render(
            Drawing(groups: [band, above]), viewport: viewport, peers: [dan])
        // Right, left and above all cover ink; below would be the status bar: the least covered
        // spot on the canvas wins, and row 3 stays blank.
        #expect(grid.rows[3] == "")
        #expect(grid.rows[2].contains("dan") || grid.rows[1].contains("dan"))
    }
}

import StrokeKit
import TerminalCanvas
import Testing

@Suite struct ToolKeyboardTests {
    @Test func spaceArrowsSpaceDrawsAStrokeAlongTheCursorsPath() throws {
        var session = CanvasSession()
        session.run(.moveCursor(dx: 2, dy: 1), .togglePen)
        #expect(session.editor.isPenDown)
        for _ in 0..<4 { session.run(.moveCursor(dx: 1, dy: 0)) }
        session.run(.moveCursor(dx: 0, dy: 1), .moveCursor(dx: 0, dy: 1))
        #expect(session.document.isEmpty)
        #expect(session.editor.inProgressCells.count == 7)
        session.run(.togglePen)

        #expect(!session.editor.isPenDown)
        let stroke = try #require(session.document.groups.first?.pieces.first)
        #expect(CanvasFixtures.cells(of: stroke).map(\.x) == [2, 3, 4, 5, 6, 6, 6])
        #expect(CanvasFixtures.cells(of: stroke).map(\.y) == [1, 1, 1, 1, 1, 2, 3])
        #expect(session.screen() == ["", "  ▄▄▄▄▄", "      █", "      █", "", ""])
        #expect(session.grid()[6, 3].attributes.contains(.reverse))
    }

    @Test func movingWithThePenUpDrawsNothing() {
        var session = CanvasSession()
        session.run(.moveCursor(dx: 3, dy: 0), .moveCursor(dx: 0, dy: 2), .moveCursor(dx: -1, dy: 0))
        #expect(session.editor.cursor == CanvasCell(x: 2, y: 2))
        #expect(session.editor.inProgressStroke == nil)
        #expect(session.document.isEmpty)
        #expect(session.screen() == ["", "", "  +", "", "", ""])
    }

    @Test func theKeyboardEraserErasesAlongEachMove() throws {
        let line = CanvasFixtures.group(through: [(1, 2), (10, 2)])
        var session = CanvasSession(groups: [line])
        session.run(.selectTool(.maskEraser), .moveCursor(dx: 5, dy: 0), .togglePen)
        for _ in 0..<4 { session.run(.moveCursor(dx: 0, dy: 1)) }
        #expect(session.document[line.key]?.pieces.count == 2)
        session.run(.togglePen)
        #expect(session.ink == ["", "", " ▄▄▄▄ ▄▄▄▄▄", "", "", ""])
        #expect(session.editor.undoStack.undoEntries.count == 1)
    }

    @Test func theKeyboardStrokeEraserRemovesWhatTheCursorCrosses() {
        let line = CanvasFixtures.group(through: [(1, 2), (10, 2)])
        var session = CanvasSession(groups: [line])
        session.run(.selectTool(.strokeEraser), .moveCursor(dx: 4, dy: 0), .togglePen)
        #expect(session.document[line.key] == line)
        session.run(.moveCursor(dx: 0, dy: 1), .moveCursor(dx: 0, dy: 1))
        #expect(session.document.isEmpty)
    }

    @Test func hoverReportsDoNotMoveTheCursorWhileTheKeyboardPenIsDown() throws {
        var session = CanvasSession()
        session.run(.moveCursor(dx: 1, dy: 1), .togglePen, .moveCursor(dx: 1, dy: 0))
        session.run(.pointer(.hover(CanvasCell(x: 9, y: 4))))
        #expect(session.editor.cursor == CanvasCell(x: 2, y: 1))
        #expect(session.editor.isPenDown)
        session.run(.moveCursor(dx: 1, dy: 0), .togglePen)
        let stroke = try #require(session.document.groups.first?.pieces.first)
        #expect(CanvasFixtures.cells(of: stroke).map(\.x) == [1, 2, 3])
    }

    @Test func switchingToolsLiftsThePenAndCommitsTheStroke() {
        var session = CanvasSession()
        session.run(.togglePen, .moveCursor(dx: 3, dy: 0), .selectTool(.maskEraser))
        #expect(!session.editor.isPenDown)
        #expect(session.lastFeedback.documentChanged)
        #expect(session.document.count == 1)
        #expect(session.editor.tool == .maskEraser)
    }

    @Test func theViewFollowsTheCursorPastTheEdgeOfTheScreen() {
        var session = CanvasSession(width: 12, height: 6)
        for _ in 0..<15 { session.run(.moveCursor(dx: 1, dy: 0)) }
        for _ in 0..<7 { session.run(.moveCursor(dx: 0, dy: 1)) }
        #expect(session.editor.cursor == CanvasCell(x: 15, y: 7))
        // Scrolled just enough: the cursor is on the last column and the last canvas row.
        #expect(session.editor.viewport.origin == CanvasCell(x: 4, y: 3))
        #expect(session.screen() == ["", "", "", "", "           +", ""])
    }

    @Test func aSmallerTerminalStillShowsTheCursor() {
        var session = CanvasSession(width: 20, height: 10, cursor: CanvasCell(x: 15, y: 7))
        session.editor.resizeScreen(width: 10, height: 5)
        #expect(session.editor.viewport.origin == CanvasCell(x: 6, y: 4))
        #expect(session.screen() == ["", "", "", "         +", ""])
    }
}

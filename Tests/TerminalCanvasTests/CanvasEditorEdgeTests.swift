import StrokeKit
import TerminalCanvas
import Testing

/// The editor at the edges of the screen and of the canvas: the status row, the canvas origin,
/// screens that shrink and grow, sizes at their ends.
@Suite struct CanvasEditorEdgeTests {
    /// Mouse reports at screen cells, mapped through the editor's viewport as the app maps them.
    private func mouse(_ session: inout CanvasSession, _ kind: MouseEvent.Kind, _ x: Int, _ y: Int) {
        guard let command = EditorCommand(MouseEvent(kind, x: x, y: y), viewport: session.editor.viewport)
        else { return }
        session.run(command)
    }

    @Test func aStrokeReleasedOnTheStatusRowIsCommitted() throws {
        var session = CanvasSession(width: 80, height: 24)
        mouse(&session, .press, 9, 17)
        for y in 18...23 { mouse(&session, .drag, 9, y) }
        mouse(&session, .release, 9, 23)
        #expect(session.editor.inProgressStroke == nil)
        #expect(session.lastFeedback.documentChanged)
        let stroke = try #require(session.document.groups.first?.pieces.first)
        // The part dragged over the status row stays on the last canvas row.
        #expect(CanvasFixtures.cells(of: stroke).map(\.y) == [17, 18, 19, 20, 21, 22])
        #expect(session.editor.undoStack.undoEntries.count == 1)
    }

    @Test func aStrokeReleasedOutsideTheWindowIsCommitted() {
        var session = CanvasSession(width: 80, height: 24)
        mouse(&session, .press, 70, 5)
        mouse(&session, .drag, 79, 5)
        mouse(&session, .drag, 85, 5)
        mouse(&session, .release, 90, 5)
        #expect(session.editor.inProgressStroke == nil)
        #expect(session.document.count == 1)
    }

    @Test func aPressOnTheStatusRowStartsNoStrokeEvenWhenDraggedOntoTheCanvas() {
        var session = CanvasSession(width: 80, height: 24)
        mouse(&session, .press, 30, 23)
        mouse(&session, .drag, 30, 22)
        mouse(&session, .drag, 35, 15)
        #expect(session.editor.inProgressStroke == nil)
        mouse(&session, .release, 35, 15)
        #expect(session.document.isEmpty)
        // The next press on the canvas draws as usual.
        mouse(&session, .press, 5, 5)
        mouse(&session, .drag, 9, 5)
        mouse(&session, .release, 9, 5)
        #expect(session.document.count == 1)
    }

    @Test func aPressOnTheStatusRowEndsTheKeyboardStroke() {
        var session = CanvasSession(width: 80, height: 24, cursor: CanvasCell(x: 3, y: 3))
        session.run(.togglePen, .moveCursor(dx: 4, dy: 0))
        mouse(&session, .press, 30, 23)
        #expect(!session.editor.isPenDown)
        #expect(session.document.count == 1)
    }

    @Test func theCursorAndThePenStopAtTheCanvasOrigin() throws {
        var session = CanvasSession(width: 12, height: 6, cursor: CanvasCell(x: 2, y: 1))
        session.run(.pan(.left), .pan(.up))
        #expect(session.editor.viewport.origin == CanvasCell(x: 0, y: 0))
        #expect(session.editor.cursor == CanvasCell(x: 2, y: 1))
        session.run(.togglePen)
        for _ in 0..<5 { session.run(.moveCursor(dx: -1, dy: -1)) }
        session.run(.togglePen)
        #expect(session.editor.cursor == CanvasCell(x: 0, y: 0))
        let stroke = try #require(session.document.groups.first?.pieces.first)
        #expect(stroke.path.allSatisfy { $0.point.x >= 0 && $0.point.y >= 0 })
        #expect(CanvasSession(cursor: CanvasCell(x: -4, y: -9)).editor.cursor == CanvasCell(x: 0, y: 0))
    }

    @Test func shrinkingAndGrowingTheTerminalBringsTheDrawingBack() {
        let stored = CanvasFixtures.group(through: [(2, 1), (8, 1)])
        var session = CanvasSession(width: 80, height: 24, groups: [stored])
        mouse(&session, .move, 60, 20)
        session.editor.resizeScreen(width: 20, height: 6)
        #expect(session.editor.viewport.shows(session.editor.cursor))
        #expect(!session.editor.viewport.shows(CanvasCell(x: 5, y: 1)))
        session.editor.resizeScreen(width: 80, height: 24)
        #expect(session.editor.viewport.origin == CanvasCell(x: 0, y: 0))
        #expect(session.screen()[1] == "  ▄▄▄▄▄▄▄")
    }

    @Test func homeTakesTheViewBackToTheOriginAndTheCursorAlong() {
        var session = CanvasSession(width: 12, height: 6, cursor: CanvasCell(x: 4, y: 2))
        session.run(.pan(.right), .pan(.right), .pan(.down))
        #expect(session.editor.viewport.origin == CanvasCell(x: 6, y: 1))
        session.run(.viewHome)
        #expect(session.editor.viewport.origin == CanvasCell(x: 0, y: 0))
        #expect(session.editor.cursor == CanvasCell(x: 4, y: 2))
        #expect(session.lastFeedback == .none)
    }

    @Test func everySizeKeyEitherChangesTheSizeOrSaysWhyNot() {
        var session = CanvasSession()
        var sizes = [session.editor.settings.penWidth]
        for _ in 1..<ToolSettings.penWidths.count {
            session.run(.growSize)
            #expect(session.lastFeedback.message == nil)
            sizes.append(session.editor.settings.penWidth)
        }
        #expect(sizes == ToolSettings.penWidths)
        session.run(.growSize)
        #expect(session.lastFeedback.message == "pen size 4 is the largest")
        session.run(.selectTool(.maskEraser), .shrinkSize, .shrinkSize)
        #expect(session.lastFeedback.message == "mask eraser size 0.5 is the smallest")
        session.run(.selectTool(.strokeEraser), .growSize)
        #expect(session.lastFeedback.message?.contains("no size") == true)
    }
}

import TerminalCanvas
import Testing

@Suite struct EditorCommandInputTests {
    @Test func keysBoundToTheEditorBecomeEditorCommands() {
        #expect(EditorCommand(KeyCommand.move(.left)) == .moveCursor(dx: -1, dy: 0))
        #expect(EditorCommand(KeyCommand.pan(.down)) == .pan(.down))
        #expect(EditorCommand(KeyCommand.selectTool(.maskEraser)) == .selectTool(.maskEraser))
        #expect(EditorCommand(KeyCommand.selectColor(3)) == .selectColour(slot: 3))
        #expect(EditorCommand(KeyCommand.growBrush) == .growSize)
        #expect(EditorCommand(KeyCommand.quit) == nil)
        #expect(EditorCommand(KeyCommand.toggleHelp) == nil)
    }

    @Test func mouseReportsMapThroughTheViewport() {
        var viewport = CanvasViewport(screenWidth: 40, screenHeight: 10)
        viewport.pan(dx: 5, dy: 2)
        #expect(
            EditorCommand(MouseEvent(.press, x: 1, y: 1), viewport: viewport)
                == .pointer(.press(CanvasCell(x: 6, y: 3))))
        #expect(
            EditorCommand(MouseEvent(.drag, x: 0, y: 0), viewport: viewport)
                == .pointer(.drag(CanvasCell(x: 5, y: 2))))
        #expect(EditorCommand(MouseEvent(.scrollUp, x: 3, y: 3), viewport: viewport) == nil)
        #expect(EditorCommand(KeyCommand.viewHome) == .viewHome)
    }

    @Test func onTheStatusRowAPressStartsNothingButADragOrReleaseStaysOnTheCanvasEdge() {
        var viewport = CanvasViewport(screenWidth: 40, screenHeight: 10)
        viewport.pan(dx: 5, dy: 2)
        #expect(EditorCommand(MouseEvent(.press, x: 3, y: 9), viewport: viewport) == .pressOffCanvas)
        #expect(
            EditorCommand(MouseEvent(.drag, x: 3, y: 9), viewport: viewport)
                == .pointer(.drag(CanvasCell(x: 8, y: 10))))
        #expect(
            EditorCommand(MouseEvent(.release, x: 3, y: 9), viewport: viewport)
                == .pointer(.release(CanvasCell(x: 8, y: 10))))
        // Out of the window, as terminals report while the button is held.
        #expect(
            EditorCommand(MouseEvent(.release, x: 55, y: 30), viewport: viewport)
                == .pointer(.release(CanvasCell(x: 44, y: 10))))
        #expect(
            EditorCommand(MouseEvent(.move, x: 3, y: 9), viewport: viewport)
                == .pointer(.hover(CanvasCell(x: 8, y: 10))))
        // No canvas area at all: the release still ends the gesture.
        let flat = CanvasViewport(screenWidth: 40, screenHeight: 1)
        #expect(EditorCommand(MouseEvent(.release, x: 3, y: 0), viewport: flat) == .liftPen)
        #expect(EditorCommand(MouseEvent(.drag, x: 3, y: 0), viewport: flat) == nil)
    }
}

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

    @Test func mouseReportsMapThroughTheViewportAndSkipTheStatusRow() {
        var viewport = CanvasViewport(screenWidth: 40, screenHeight: 10)
        viewport.pan(dx: 5, dy: 2)
        #expect(EditorCommand(MouseEvent(.press, x: 1, y: 1), viewport: viewport) == .pointer(.press(CanvasCell(x: 6, y: 3))))
        #expect(EditorCommand(MouseEvent(.drag, x: 0, y: 0), viewport: viewport) == .pointer(.drag(CanvasCell(x: 5, y: 2))))
        #expect(EditorCommand(MouseEvent(.press, x: 3, y: 9), viewport: viewport) == nil)
        #expect(EditorCommand(MouseEvent(.scrollUp, x: 3, y: 3), viewport: viewport) == nil)
    }
}

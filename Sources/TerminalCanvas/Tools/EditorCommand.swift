/// What the user asked the canvas to do, after key codes and mouse reports were decoded.
///
/// The app maps keys to commands (`p` `m` `e` `x` tools, `[` `]` size, `1`–`9` colour, arrows or
/// hjkl `moveCursor`, space `togglePen`, `u` `r`, H J K L `pan`, `0` `viewHome`); the editor never sees a key code.
public enum EditorCommand: Hashable, Sendable {
    case pointer(PointerEvent)
    /// The button went down off the canvas (on the status bar): ends the gesture in progress,
    /// starts none, and the drags that follow draw nothing until the button comes up.
    case pressOffCanvas
    /// Moves the keyboard cursor; with the pen down this draws (or erases) along the move.
    case moveCursor(dx: Int, dy: Int)
    /// Puts the keyboard pen down at the cursor, or lifts it.
    case togglePen
    case selectTool(ToolKind)
    /// Selects colour key 1–9.
    case selectColour(slot: Int)
    /// `]`: the next larger size of the current tool.
    case growSize
    /// `[`: the next smaller size of the current tool.
    case shrinkSize
    case undo
    case redo
    /// Moves the view by a quarter screen; the cursor moves along, keeping its screen position.
    case pan(CanvasViewport.PanDirection)
    /// `0` or Home: back to the canvas origin, the top-left corner of what export shows; the
    /// cursor moves along, as with `pan`.
    case viewHome
    /// Moves the view by a number of cells (never past the canvas origin), the cursor along as
    /// with `pan`: following a peer's cursor.
    case panBy(dx: Int, dy: Int)
    /// Ends the gesture in progress, keeping what it drew: the app is about to quit, suspend or
    /// open another drawing, and a stroke on screen must not be lost with it.
    case liftPen
    /// Removes every stroke of the drawing (the drawings menu's clear, after its confirmation),
    /// as one undo step. Strokes of a kind this build does not know are left as they are.
    case clearDrawing
    /// A key typed with the text tool: text at the caret (a text starts at the cursor).
    case type(TextInput)

    /// What a key does to the text being typed.
    public enum TextInput: Hashable, Sendable {
        case character(Character)
        case newLine
        case backspace
    }
    /// Puts the cursor on a cell (`f`, to a peer's cursor) without moving a selection along.
    case placeCursor(CanvasCell)
    /// Selects an xterm-256 colour (the palette overlay, the eyedropper).
    case selectColourValue(UInt8)
    /// `=`: the shape tools' constraint (45° lines, squares, circles) on or off; it applies to
    /// the shape being drawn at once. Shift held with the mouse constrains too.
    case toggleConstraint
    /// `Delete`: removes the selected strokes (one undo step).
    case deleteSelection
    /// `y`: copies the selected strokes a little right of and below themselves, and selects the
    /// copies (one undo step).
    case duplicateSelection
    /// Esc with a selection: selects nothing.
    case clearSelection
}

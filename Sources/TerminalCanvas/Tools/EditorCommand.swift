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
}

/// What the user meant by a key or a mouse report: the app loop switches over these.
public enum InputEvent: Equatable, Sendable {
    /// A key bound to an action (see `Resources/help/keys.txt`).
    case command(KeyCommand)
    /// Printable text: every printable key while a prompt takes text, and keys bound to nothing
    /// otherwise (so menus can use letters of their own).
    case character(Character)
    case enter
    case backspace
    case mouse(MouseEvent)
    /// The terminal changed size; the screen has the new size.
    case resize
}

/// The actions keys are bound to.
public enum KeyCommand: Equatable, Hashable, Sendable {
    /// Arrows and `h j k l`: move the keyboard cursor.
    case move(Direction)
    /// `H J K L`: move the view over the canvas.
    case pan(Direction)
    /// `0` and Home: the view back to the canvas origin.
    case viewHome
    /// Space: pen down / pen up.
    case togglePen
    /// `p`, `m`, `e`, `x`; `/` `b` `c` (line, box, ellipse), `s` (select), `i` (eyedropper).
    case selectTool(ToolKind)
    /// `[`.
    case shrinkBrush
    /// `]`.
    case growBrush
    /// `1`–`9`: a palette entry, 1-based as printed on the key.
    case selectColor(Int)
    case undo
    case redo
    /// `?` (and F1).
    case toggleHelp
    case quit
    /// `g`: block or braille glyphs.
    case toggleGlyphs
    /// `o`: the drawings list.
    case openDrawings
    /// Esc: close an overlay or cancel a prompt.
    case escape
    /// `f`: move the cursor (and the view) to the next peer's cursor on this drawing.
    case jumpToPeer
    /// `F`: keep a peer's cursor in view as it moves, until a pan, Esc or `F` again.
    case followPeer
    /// `E`: export the drawing to a file (a prompt asks where).
    case exportDrawing
    /// `C`: the palette overlay of all 256 colours.
    case openPalette
    /// `=`: the shape tools' constraint on or off.
    case toggleConstraint
    /// `Delete`: remove the selected strokes.
    case deleteSelection
    /// `y`: duplicate the selected strokes.
    case duplicateSelection
}

/// A direction on the cell grid; `up` is towards row 0.
public enum Direction: Equatable, Hashable, Sendable, CaseIterable {
    case up, down, left, right

    /// The cell offset one step in this direction.
    public var offset: (dx: Int, dy: Int) {
        switch self {
        case .up: (0, -1)
        case .down: (0, 1)
        case .left: (-1, 0)
        case .right: (1, 0)
        }
    }
}

/// A mouse action (a button's press, drag or release, a hover, or the wheel) at a 0-based cell of
/// the screen.
public struct MouseEvent: Equatable, Sendable {
    /// Which button a press, drag or release is of (hovers and the wheel say left).
    public enum Button: Equatable, Sendable {
        case left, middle, right
    }

    public enum Kind: Equatable, Sendable {
        case press
        /// Motion with the left button held.
        case drag
        case release
        /// Motion with no button held (only reported with hover tracking on).
        case move
        case scrollUp
        case scrollDown
    }

    public var kind: Kind
    public var x: Int
    public var y: Int
    public var button: Button
    /// Shift was held: a wheel turn pans sideways, a shape is constrained.
    public var shift: Bool

    public init(_ kind: Kind, x: Int, y: Int, button: Button = .left, shift: Bool = false) {
        self.kind = kind
        self.x = x
        self.y = y
        self.button = button
        self.shift = shift
    }
}

/// One thing ncurses handed the program from `get_wch`/`getmouse`, already translated into plain
/// Swift values by the screen adapter, so the decoder never sees a curses constant.
public enum RawInput: Equatable, Sendable {
    /// A character code point as `get_wch` returns it, control characters included.
    case character(UInt32)
    /// A key that `keypad` decoded into a `KEY_*` code.
    case key(SpecialKey)
    /// One mouse report from `getmouse`.
    case mouse(MouseReport)
}

/// The `KEY_*` codes the app cares about; anything else keeps its number for logging.
public enum SpecialKey: Equatable, Sendable {
    case up, down, left, right
    case enter, backspace, delete
    case home, end, pageUp, pageDown
    /// The terminal changed size (`KEY_RESIZE`).
    case resize
    /// A function key, `F1` is `function(1)`.
    case function(Int)
    case other(Int32)
}

/// A mouse report as ncurses gives it: which button states changed, at a 0-based cell.
public struct MouseReport: Equatable, Sendable {
    public var buttons: MouseButtons
    public var x: Int
    public var y: Int

    public init(_ buttons: MouseButtons, x: Int, y: Int) {
        self.buttons = buttons
        self.x = x
        self.y = y
    }
}

/// The `bstate` bits of a mouse report that the decoder understands.
///
/// ncurses reports a drag as `position` alone, without a button bit: whether the left button is
/// down is something the decoder has to remember.
public struct MouseButtons: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let leftPressed = MouseButtons(rawValue: 1 << 0)
    public static let leftReleased = MouseButtons(rawValue: 1 << 1)
    /// Press and release in one report (what ncurses makes of a quick click).
    public static let leftClicked = MouseButtons(rawValue: 1 << 2)
    /// Motion: a drag while the left button is held, a hover otherwise.
    public static let position = MouseButtons(rawValue: 1 << 3)
    public static let wheelUp = MouseButtons(rawValue: 1 << 4)
    public static let wheelDown = MouseButtons(rawValue: 1 << 5)
    public static let rightPressed = MouseButtons(rawValue: 1 << 6)
    public static let rightReleased = MouseButtons(rawValue: 1 << 7)
    public static let middlePressed = MouseButtons(rawValue: 1 << 8)
    public static let middleReleased = MouseButtons(rawValue: 1 << 9)
    /// Shift was held (shift-wheel pans sideways).
    public static let shift = MouseButtons(rawValue: 1 << 10)
}

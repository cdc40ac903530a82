import StrokeKit

/// Another peer as the canvas shows it: a cursor in the peer's colour with its name beside it,
/// and the stroke it is drawing but has not committed yet.
public struct PeerPresence: Hashable, Sendable {
    public var name: String
    /// An xterm-256 palette index.
    public var colour: UInt8
    public var cursor: CanvasCell
    /// The cells of the stroke in progress, in drawing order; empty when the peer is not drawing.
    public var strokeInProgress: [CanvasCell]
    /// What the stroke in progress is drawn with (a marker shows under the ink, as it will once
    /// committed).
    public var inkTool: InkTool
    /// The width of the stroke in progress in cells; nil draws the tool's default width.
    public var width: Double?
    /// The colour of the peer's cursor, name tag and edge arrow: one of its own, the same in
    /// every session, so a person is told apart by it whatever pen they hold. Nil: the pen's.
    public var cursorColour: UInt8?
    /// Text the peer is typing, its first character in the first cell of `strokeInProgress`.
    public var textInProgress: String

    /// What the cursor, tag and arrow are drawn in.
    public var markColour: UInt8 { cursorColour ?? colour }

    public init(
        name: String, colour: UInt8, cursor: CanvasCell, strokeInProgress: [CanvasCell] = [],
        inkTool: InkTool = .pen, width: Double? = nil, cursorColour: UInt8? = nil, textInProgress: String = ""
    ) {
        self.cursorColour = cursorColour
        self.textInProgress = textInProgress
        self.name = name
        self.colour = colour
        self.cursor = cursor
        self.strokeInProgress = strokeInProgress
        self.inkTool = inkTool
        self.width = width
    }

    /// The longest name tag drawn next to a cursor.
    public static let maximumTagLength = 8

    /// The name as it is drawn: printable ASCII only (a remote name must not smuggle control
    /// sequences or double-width characters into the grid), at most `maximumTagLength` characters.
    public var tag: String {
        let scalars = name.unicodeScalars.prefix(Self.maximumTagLength).map { scalar in
            (0x20...0x7E).contains(scalar.value) ? Character(scalar) : "?"
        }
        return String(scalars)
    }
}

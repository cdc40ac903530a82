/// Where a peer is and what it is doing right now: ephemeral, never stored, forgotten when the
/// peer goes quiet.
public struct PresenceUpdate: Equatable, Sendable {
    /// A cell position on the canvas.
    public struct Point: Equatable, Sendable {
        public var x: Int32
        public var y: Int32

        public init(x: Int32, y: Int32) {
            self.x = x
            self.y = y
        }
    }

    /// The peer the presence belongs to (a relay forwards others' presence unchanged).
    public var peerID: UInt64
    public var displayName: String
    /// The drawing the peer is looking at: cursors and strokes in progress belong to it, and a
    /// peer on another drawing is online but not on this canvas.
    public var drawingID: String
    public var cursor: Point
    public var tool: String
    public var colour: UInt8
    /// Points of the stroke being drawn, not yet committed.
    public var strokeInProgress: [Point]
    /// The width of the stroke being drawn, in sixteenths of a cell (the stroke model's grid);
    /// 0 when there is none or it is not known, and the tool's default width is drawn.
    public var widthSixteenths: UInt16
    /// The stroke key the stroke in progress will be committed under ("" when there is none, or
    /// from a peer that does not send it). A viewer keeps showing the stroke after pen up until
    /// the committed group with this key has arrived, so the ink never blinks out between the two.
    public var strokeKey: String
    /// Text being typed and not yet committed (lines split by line feeds), its first character
    /// in the cell of the first point of `strokeInProgress`; "" when none is.
    public var textInProgress: String
    /// The cursor colour the peer chose (`--cursor-colour`), an xterm-256 index; nil when it chose
    /// none, and each viewer picks one from its peer id. Sent only when chosen, as the last byte.
    public var cursorColour: UInt8? = nil

    public init(
        peerID: UInt64, displayName: String, drawingID: String, cursor: Point, tool: String, colour: UInt8,
        strokeInProgress: [Point] = [], widthSixteenths: UInt16 = 0, strokeKey: String = "",
        textInProgress: String = ""
    ) {
        self.textInProgress = textInProgress
        self.peerID = peerID
        self.displayName = displayName
        self.drawingID = drawingID
        self.cursor = cursor
        self.tool = tool
        self.colour = colour
        self.strokeInProgress = strokeInProgress
        self.widthSixteenths = widthSixteenths
        self.strokeKey = strokeKey
    }
}

extension PresenceUpdate {
    /// The presence a canvas showing `drawingID` draws: other peers on that drawing, in peer id
    /// order (so overlapping name tags stack the same way on every repaint).
    public static func onCanvas(
        _ updates: some Sequence<PresenceUpdate>, drawingID: String, excluding ownPeerID: UInt64
    ) -> [PresenceUpdate] {
        updates.filter { $0.drawingID == drawingID && $0.peerID != ownPeerID }.sorted {
            $0.peerID < $1.peerID
        }
    }
}

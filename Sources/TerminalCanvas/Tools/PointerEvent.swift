/// A mouse report in canvas cells (the viewport has already translated it from the screen).
public enum PointerEvent: Hashable, Sendable {
    /// The button went down.
    case press(CanvasCell)
    /// The pointer moved with the button down.
    case drag(CanvasCell)
    /// The button came up.
    case release(CanvasCell)
    /// The pointer moved with no button down (reported in any-motion mode only).
    case hover(CanvasCell)

    public var cell: CanvasCell {
        switch self {
        case .press(let cell), .drag(let cell), .release(let cell), .hover(let cell): cell
        }
    }
}

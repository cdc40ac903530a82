import StrokeKit

/// Which part of the canvas the screen shows, and where the status bar goes.
///
/// The screen is `screenWidth` x `screenHeight` cells; its last row belongs to the status bar,
/// so the canvas shows `screenWidth` x (`screenHeight` - 1) cells starting at `origin`. Pure
/// state: panning and following the cursor only move the origin.
public struct CanvasViewport: Hashable, Sendable {
    /// The canvas cell in the top-left corner of the screen.
    public private(set) var origin: CanvasCell
    public private(set) var screenWidth: Int
    public private(set) var screenHeight: Int

    /// The direction of a pan key (H, J, K, L move the view left, down, up, right).
    public enum PanDirection: Hashable, Sendable {
        case left, down, up, right
    }

    public init(origin: CanvasCell = CanvasCell(x: 0, y: 0), screenWidth: Int, screenHeight: Int) {
        self.origin = origin
        self.screenWidth = max(0, screenWidth)
        self.screenHeight = max(0, screenHeight)
    }

    /// Rows of canvas on screen: all but the status bar's.
    public var canvasRows: Int { max(0, screenHeight - 1) }

    /// The canvas rectangle on screen, for `Raster.render`.
    public var visible: Viewport {
        Viewport(x: origin.x, y: origin.y, width: screenWidth, height: canvasRows)
    }

    /// Whether a canvas cell is on screen (not under the status bar).
    public func shows(_ cell: CanvasCell) -> Bool {
        screenPosition(of: cell) != nil
    }

    /// Where a canvas cell is on screen; nil when it is off screen.
    public func screenPosition(of cell: CanvasCell) -> (x: Int, y: Int)? {
        let x = cell.x - origin.x
        let y = cell.y - origin.y
        guard x >= 0, y >= 0, x < screenWidth, y < canvasRows else { return nil }
        return (x, y)
    }

    /// The canvas cell under a screen position; nil on the status bar or off screen.
    public func canvasCell(atScreenX x: Int, y: Int) -> CanvasCell? {
        guard x >= 0, y >= 0, x < screenWidth, y < canvasRows else { return nil }
        return origin.offset(dx: x, dy: y)
    }

    /// The terminal changed size; the origin stays where it is.
    public mutating func resize(screenWidth: Int, screenHeight: Int) {
        self.screenWidth = max(0, screenWidth)
        self.screenHeight = max(0, screenHeight)
    }

    /// Moves the view by a number of cells.
    public mutating func pan(dx: Int, dy: Int) {
        origin = origin.offset(dx: dx, dy: dy)
    }

    /// How far one pan key moves the view: a quarter of the screen, at least one cell.
    public func panStep(_ direction: PanDirection) -> (dx: Int, dy: Int) {
        let across = max(1, screenWidth / 4)
        let down = max(1, canvasRows / 4)
        return switch direction {
        case .left: (-across, 0)
        case .right: (across, 0)
        case .up: (0, -down)
        case .down: (0, down)
        }
    }

    /// Moves the view by the least amount that brings `cell` on screen (nothing if it already is,
    /// or if there is no canvas area at all).
    public mutating func keepVisible(_ cell: CanvasCell) {
        guard screenWidth > 0, canvasRows > 0 else { return }
        var dx = 0
        var dy = 0
        if cell.x < origin.x { dx = cell.x - origin.x }
        if cell.x >= origin.x + screenWidth { dx = cell.x - (origin.x + screenWidth - 1) }
        if cell.y < origin.y { dy = cell.y - origin.y }
        if cell.y >= origin.y + canvasRows { dy = cell.y - (origin.y + canvasRows - 1) }
        pan(dx: dx, dy: dy)
    }
}

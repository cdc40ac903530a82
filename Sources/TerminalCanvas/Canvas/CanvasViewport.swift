import StrokeKit

/// Which part of the canvas the screen shows, and where the status bar goes.
///
/// The screen is `screenWidth` x `screenHeight` cells; its last row belongs to the status bar,
/// so the canvas shows `screenWidth` x (`screenHeight` - 1) cells starting at `origin`. Pure
/// state: panning and following the cursor only move the origin.
///
/// The view never shows negative coordinates: exports run from the canvas origin (0, 0), so ink
/// left or above it would be drawn but never exported. And the view remembers where the user put
/// it (`chosenOrigin`): when a small terminal forces it to scroll to keep the cursor on screen,
/// growing the terminal again brings the chosen view back instead of leaving it scrolled away.
public struct CanvasViewport: Hashable, Sendable {
    /// The canvas cell in the top-left corner of the screen.
    public private(set) var origin: CanvasCell
    /// The origin the user chose by panning or by moving the cursor past an edge; resizes start
    /// from it rather than from wherever a smaller screen had to scroll.
    public private(set) var chosenOrigin: CanvasCell
    public private(set) var screenWidth: Int
    public private(set) var screenHeight: Int

    /// The direction of a pan key (H, J, K, L move the view left, down, up, right).
    public enum PanDirection: Hashable, Sendable {
        case left, down, up, right
    }

    /// A view of the canvas at `origin` (negative coordinates are raised to 0).
    public init(origin: CanvasCell = CanvasCell(x: 0, y: 0), screenWidth: Int, screenHeight: Int) {
        self.origin = Self.clamped(origin)
        chosenOrigin = self.origin
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

    /// The canvas cell nearest a screen position: the position itself on the canvas area, else
    /// the closest cell on its edge (a drag that went onto the status bar or out of the window).
    /// Nil only when there is no canvas area at all.
    public func nearestCanvasCell(toScreenX x: Int, y: Int) -> CanvasCell? {
        guard screenWidth > 0, canvasRows > 0 else { return nil }
        return origin.offset(dx: min(max(x, 0), screenWidth - 1), dy: min(max(y, 0), canvasRows - 1))
    }

    /// The terminal changed size. The view goes back to the origin the user chose and then
    /// scrolls by the least amount that shows `cell` (the cursor), without making that scroll
    /// the user's choice: a tiny window does not leave the view adrift once it grows again.
    public mutating func resize(screenWidth: Int, screenHeight: Int, keeping cell: CanvasCell) {
        self.screenWidth = max(0, screenWidth)
        self.screenHeight = max(0, screenHeight)
        origin = chosenOrigin
        origin = scrolled(toShow: cell)
    }

    /// Moves the view by up to a number of cells, stopping at the canvas origin; returns how far
    /// it moved.
    @discardableResult
    public mutating func pan(dx: Int, dy: Int) -> (dx: Int, dy: Int) {
        let before = origin
        origin = Self.clamped(origin.offset(dx: dx, dy: dy))
        chosenOrigin = origin
        return (origin.x - before.x, origin.y - before.y)
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
    /// or if there is no canvas area at all); a move made here is the user's choice (the cursor
    /// was moved past an edge).
    public mutating func keepVisible(_ cell: CanvasCell) {
        let next = scrolled(toShow: cell)
        guard next != origin else { return }
        origin = next
        chosenOrigin = next
    }

    /// The origin moved by the least amount that shows `cell`, never below (0, 0).
    private func scrolled(toShow cell: CanvasCell) -> CanvasCell {
        guard screenWidth > 0, canvasRows > 0 else { return origin }
        var x = origin.x
        var y = origin.y
        if cell.x < x { x = cell.x }
        if cell.x >= x + screenWidth { x = cell.x - screenWidth + 1 }
        if cell.y < y { y = cell.y }
        if cell.y >= y + canvasRows { y = cell.y - canvasRows + 1 }
        return Self.clamped(CanvasCell(x: x, y: y))
    }

    /// A cell with negative coordinates raised to 0: the part of the canvas a view may show and
    /// a cursor may reach.
    public static func clamped(_ cell: CanvasCell) -> CanvasCell {
        CanvasCell(x: max(0, cell.x), y: max(0, cell.y))
    }
}

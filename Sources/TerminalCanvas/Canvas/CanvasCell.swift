import StrokeKit

/// A character cell of the canvas (not of the screen): x to the right, y down, in whole cells.
///
/// Pointer and keyboard positions are cells; the stroke model works in `CanvasPoint`s, and a
/// cell's point is its centre, so a stroke drawn through cells runs through their middles.
public struct CanvasCell: Hashable, Sendable {
    public let x: Int
    public let y: Int

    /// The largest coordinate magnitude a cell may have: one inside the stroke model's limit, so
    /// a cell's centre is always a point the model can hold.
    public static let limit = Int(FixedPoint.coordinateLimit) - 1

    /// A cell, clamped to ±`limit`.
    public init(x: Int, y: Int) {
        self.x = min(max(x, -Self.limit), Self.limit)
        self.y = min(max(y, -Self.limit), Self.limit)
    }

    /// The cell that holds a canvas point.
    public init(containing point: CanvasPoint) {
        self.init(x: Int(point.x.rounded(.down)), y: Int(point.y.rounded(.down)))
    }

    /// The centre of the cell, where strokes drawn through it pass.
    public var centre: CanvasPoint {
        CanvasPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
    }

    /// The cell moved by a number of cells (clamped, never overflowing).
    public func offset(dx: Int, dy: Int) -> CanvasCell {
        let limit = Self.limit
        let clampedDX = min(max(dx, -2 * limit), 2 * limit)
        let clampedDY = min(max(dy, -2 * limit), 2 * limit)
        return CanvasCell(x: x + clampedDX, y: y + clampedDY)
    }
}

extension CanvasCell: CustomStringConvertible {
    public var description: String { "(\(x), \(y))" }
}

/// A point on the canvas, in cells (x to the right, y down), kept on the 1/16-cell grid.
///
/// One cell is one unit; the fraction is what braille (2x4 dots per cell) and half blocks show.
public struct CanvasPoint: Hashable, Sendable {
    public let x: Double
    public let y: Double

    /// Snaps both coordinates to the 1/16-cell grid (see `FixedPoint`).
    public init(x: Double, y: Double) {
        self.x = FixedPoint.quantize(x)
        self.y = FixedPoint.quantize(y)
    }

    /// A point whose coordinates are on the grid already (no snapping).
    init(onGridX x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The point moved by an offset (snapped again).
    public func offset(by dx: Double, _ dy: Double) -> CanvasPoint {
        CanvasPoint(x: x + dx, y: y + dy)
    }
}

extension CanvasPoint: CustomStringConvertible {
    public var description: String { "(\(x), \(y))" }
}

/// Where a stroke has been moved to: a translation applied to its path and its mask.
///
/// Paths and masks stay in the stroke's own coordinates, so moving a stroke moves its erased
/// parts with it.
public struct StrokeTransform: Hashable, Sendable {
    public let dx: Double
    public let dy: Double

    public static let identity = StrokeTransform(dx: 0, dy: 0)

    /// A translation, snapped to the 1/16 grid.
    public init(dx: Double, dy: Double) {
        self.dx = FixedPoint.quantize(dx)
        self.dy = FixedPoint.quantize(dy)
    }

    public var isIdentity: Bool { dx == 0 && dy == 0 }

    /// A point in stroke coordinates placed on the canvas (unclamped, for geometry).
    func apply(_ point: CanvasPoint) -> Vector2 {
        Vector2(point.x + dx, point.y + dy)
    }

    /// A canvas point in stroke coordinates.
    func invert(_ point: CanvasPoint) -> CanvasPoint {
        CanvasPoint(x: point.x - dx, y: point.y - dy)
    }
}

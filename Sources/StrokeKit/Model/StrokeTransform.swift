/// Where a stroke has been moved to: a translation applied to its path and its mask.
///
/// Paths and masks stay in the stroke's own coordinates, so moving a stroke moves its erased
/// parts with it.
///
/// Kept as whole 1/16-cell units (8 bytes, not 16: every stroke piece holds one), which is exact
/// since a translation is snapped to that grid within ±`FixedPoint.coordinateLimit` cells.
public struct StrokeTransform: Hashable, Sendable {
    /// The translation in 1/16-cell units.
    let dxUnits: Int32
    let dyUnits: Int32

    public var dx: Double { FixedPoint.value(units: Int64(dxUnits)) }
    public var dy: Double { FixedPoint.value(units: Int64(dyUnits)) }

    public static let identity = StrokeTransform(dx: 0, dy: 0)

    /// A translation, snapped to the 1/16 grid.
    public init(dx: Double, dy: Double) {
        dxUnits = Int32(FixedPoint.units(FixedPoint.quantize(dx)))
        dyUnits = Int32(FixedPoint.units(FixedPoint.quantize(dy)))
    }

    public var isIdentity: Bool { dxUnits == 0 && dyUnits == 0 }

    /// A point in stroke coordinates placed on the canvas (unclamped, for geometry).
    func apply(_ point: CanvasPoint) -> Vector2 {
        Vector2(point.x + dx, point.y + dy)
    }

    /// A canvas point in stroke coordinates.
    func invert(_ point: CanvasPoint) -> CanvasPoint {
        CanvasPoint(x: point.x - dx, y: point.y - dy)
    }
}

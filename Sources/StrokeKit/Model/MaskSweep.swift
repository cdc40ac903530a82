/// One pass of the mask eraser, as it is remembered by a stroke it touched: a round brush of
/// `radius` swept along `path` (in the stroke's own coordinates). Everything within `radius` of
/// the path is hidden.
public struct MaskSweep: Hashable, Sendable {
    public let radius: Double
    public let path: [CanvasPoint]

    /// Radii the model keeps: at least one grid step, at most 64 cells.
    public static let radiusRange: ClosedRange<Double> = (1.0 / 16)...64

    /// A sweep; nil for an empty path, which would hide nothing.
    public init?(radius: Double, path: [CanvasPoint]) {
        guard !path.isEmpty else { return nil }
        self.radius = FixedPoint.quantizeLength(radius, in: Self.radiusRange)
        self.path = path
    }

    /// The path as segments (one degenerate segment for a single dab).
    var segments: [(Vector2, Vector2)] {
        PlanarGeometry.segments(of: path.map(Vector2.init))
    }
}

/// One sample of a stroke's path: where the pen was, and when, relative to the stroke's start.
///
/// Stored as three 32-bit integers (12 bytes instead of 24): the position in 1/16-cell units,
/// which is exact since every canvas point lies on that grid within ±`FixedPoint.coordinateLimit`
/// cells (±2^24 units), and the time offset, which is clamped to 32 bits anyway. A drawing keeps
/// millions of these, so they are most of its memory.
public struct StrokePoint: Hashable, Sendable {
    /// The position in 1/16-cell units (read by the sampler's exact walk of thin paths).
    let xUnits: Int32
    let yUnits: Int32
    private let milliseconds: Int32

    /// The longest stroke duration the model keeps (about 24 days); later samples are clamped.
    public static let maximumTimeOffset = Int(Int32.max)

    public init(_ point: CanvasPoint, timeOffsetMilliseconds: Int = 0) {
        xUnits = Int32(point.x * FixedPoint.unitsPerCell)
        yUnits = Int32(point.y * FixedPoint.unitsPerCell)
        milliseconds = Int32(min(max(timeOffsetMilliseconds, 0), Self.maximumTimeOffset))
    }

    public init(x: Double, y: Double, timeOffsetMilliseconds: Int = 0) {
        self.init(CanvasPoint(x: x, y: y), timeOffsetMilliseconds: timeOffsetMilliseconds)
    }

    /// A point from its grid units and time as the decoder checked them (within the coordinate
    /// limit, the time within 0...`maximumTimeOffset`): nothing is converted, snapped or clamped.
    init(xUnits: Int64, yUnits: Int64, milliseconds: Int64) {
        self.xUnits = Int32(xUnits)
        self.yUnits = Int32(yUnits)
        self.milliseconds = Int32(milliseconds)
    }

    /// Where the pen was.
    public var point: CanvasPoint {
        CanvasPoint(
            onGridX: Double(xUnits) / FixedPoint.unitsPerCell, y: Double(yUnits) / FixedPoint.unitsPerCell)
    }

    /// Milliseconds since the stroke began, clamped to 0...`maximumTimeOffset`.
    public var timeOffsetMilliseconds: Int { Int(milliseconds) }
}

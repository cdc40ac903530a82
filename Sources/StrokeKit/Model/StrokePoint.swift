/// One sample of a stroke's path: where the pen was, and when, relative to the stroke's start.
public struct StrokePoint: Hashable, Sendable {
    public let point: CanvasPoint
    /// Milliseconds since the stroke began, clamped to 0...`maximumTimeOffset`.
    public let timeOffsetMilliseconds: Int

    /// The longest stroke duration the model keeps (about 24 days); later samples are clamped.
    public static let maximumTimeOffset = Int(Int32.max)

    public init(_ point: CanvasPoint, timeOffsetMilliseconds: Int = 0) {
        self.point = point
        self.timeOffsetMilliseconds = min(max(timeOffsetMilliseconds, 0), Self.maximumTimeOffset)
    }

    public init(x: Double, y: Double, timeOffsetMilliseconds: Int = 0) {
        self.init(CanvasPoint(x: x, y: y), timeOffsetMilliseconds: timeOffsetMilliseconds)
    }
}

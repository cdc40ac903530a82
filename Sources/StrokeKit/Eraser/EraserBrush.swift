/// The round brush of the mask eraser.
public struct EraserBrush: Hashable, Sendable {
    /// The radius in cells, on the 1/16 grid, within `MaskSweep.radiusRange`.
    public let radius: Double

    public init(radius: Double) {
        self.radius = FixedPoint.quantizeLength(radius, in: MaskSweep.radiusRange)
    }
}

import StrokeKit

extension Fixtures {
    /// A text stroke with its first character in cell (x, y).
    public static func text(
        _ text: String, at cell: (x: Int, y: Int) = (0, 0), key: StrokeKey = key(), colour: UInt8 = 1,
        transform: StrokeTransform = .identity, mask: StrokeMask = .none
    ) -> Stroke {
        guard let content = StrokeText(text) else { preconditionFailure("fixture text needs characters") }
        return Stroke(
            key: key, text: content, colour: colour,
            origin: CanvasPoint(x: Double(cell.x), y: Double(cell.y)),
            createdAtMilliseconds: key.creationMilliseconds, transform: transform, mask: mask)
    }
}

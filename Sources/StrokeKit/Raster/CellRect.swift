/// A rectangle of canvas cells: the origin cell and a size (never negative); `maxX` and `maxY`
/// are exclusive. A `Viewport` is one of these.
public struct CellRect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }

    /// The smallest rectangle holding both.
    public func union(_ other: CellRect) -> CellRect {
        let minX = min(x, other.x)
        let minY = min(y, other.y)
        return CellRect(
            x: minX, y: minY, width: max(maxX, other.maxX) - minX, height: max(maxY, other.maxY) - minY)
    }

    /// Whether the two share at least one cell (an empty rectangle shares none).
    public func intersects(_ other: CellRect) -> Bool {
        width > 0 && height > 0 && other.width > 0 && other.height > 0 && x < other.maxX && other.x < maxX
            && y < other.maxY && other.y < maxY
    }

    /// The cells the two share; nil when they share none.
    public func intersection(_ other: CellRect) -> CellRect? {
        guard intersects(other) else { return nil }
        let minX = max(x, other.x)
        let minY = max(y, other.y)
        return CellRect(
            x: minX, y: minY, width: min(maxX, other.maxX) - minX, height: min(maxY, other.maxY) - minY)
    }
}

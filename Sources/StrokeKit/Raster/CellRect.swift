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
}

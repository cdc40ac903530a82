/// The cells a straight line between two cells passes through, for joining pointer samples.
///
/// A terminal reports the mouse once per event, and a fast drag jumps several cells between two
/// events; walking the line between them (Bresenham) gives every cell in between, each a
/// neighbour (including diagonally) of the one before, so a drawn or erased line has no gaps.
public enum CellLine {
    /// The cells from `start` to `end`, both included, in order.
    public static func cells(from start: CanvasCell, to end: CanvasCell) -> [CanvasCell] {
        let dx = abs(end.x - start.x)
        let dy = -abs(end.y - start.y)
        let stepX = start.x < end.x ? 1 : -1
        let stepY = start.y < end.y ? 1 : -1
        var error = dx + dy
        var x = start.x
        var y = start.y
        var cells: [CanvasCell] = []
        cells.reserveCapacity(max(dx, -dy) + 1)
        while true {
            cells.append(CanvasCell(x: x, y: y))
            if x == end.x && y == end.y { break }
            let doubled = 2 * error
            if doubled >= dy {
                error += dy
                x += stepX
            }
            if doubled <= dx {
                error += dx
                y += stepY
            }
        }
        return cells
    }
}

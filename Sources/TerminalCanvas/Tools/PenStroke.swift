import StrokeKit

/// The pen's (or the marker's) stroke while the pen is down: started at a cell, extended cell by
/// cell, committed as a new group when the pen comes up.
///
/// Every point is the centre of a cell. A move to a cell more than one away is filled in with the
/// cells on the line between (`CellLine`), so consecutive points are always neighbouring cells and
/// a fast drag leaves no gaps; the filled-in points get times spread evenly between the two
/// samples. A move to the cell the pen is already on adds nothing.
struct PenStroke: Sendable {
    private(set) var stroke: Stroke
    /// The cells of the stroke in order: what presence sends to other peers.
    private(set) var cells: [CanvasCell]
    private let startMilliseconds: Int64

    init(key: StrokeKey, ink: Ink, at cell: CanvasCell, nowMilliseconds: Int64) {
        stroke = Stroke(
            key: key, ink: ink, start: StrokePoint(cell.centre), createdAtMilliseconds: nowMilliseconds)
        cells = [cell]
        startMilliseconds = nowMilliseconds
    }

    var lastCell: CanvasCell { cells[cells.count - 1] }

    /// Extends the stroke to `cell`; false when the pen did not leave its cell.
    @discardableResult
    mutating func extend(to cell: CanvasCell, nowMilliseconds: Int64) -> Bool {
        let line = CellLine.cells(from: lastCell, to: cell).dropFirst()
        guard !line.isEmpty else { return false }
        let lastTime = stroke.path[stroke.path.count - 1].timeOffsetMilliseconds
        // A clock that stepped back must not make time run backwards within the stroke.
        let elapsed = nowMilliseconds - startMilliseconds
        let nowTime = Int(min(max(elapsed, Int64(lastTime)), Int64(StrokePoint.maximumTimeOffset)))
        for (index, next) in line.enumerated() {
            let time = lastTime + (nowTime - lastTime) * (index + 1) / line.count
            stroke.append(StrokePoint(next.centre, timeOffsetMilliseconds: time))
            cells.append(next)
        }
        return true
    }

    /// The finished stroke as a group of its own, its path in an array of its size (the drawing
    /// keeps it; the room the path grew into while the pen moved is given back).
    var group: StrokeGroup? {
        StrokeGroup(key: stroke.key, pieces: [stroke.holdingPathAtItsSize()])
    }
}

import StrokeKit

/// One drag of the mask eraser: a dab where it starts, then a sweep from cell centre to cell
/// centre on every move, applied to the drawing at once so the user sees the ink go.
struct MaskErasePass: Sendable {
    private let eraser: MaskEraser
    private(set) var lastCell: CanvasCell
    private(set) var recording = EditRecording()

    /// A pass starting at `cell`; `start(in:)` makes the first dab.
    init(brush: EraserBrush, at cell: CanvasCell) {
        eraser = MaskEraser(brush: brush)
        lastCell = cell
    }

    /// Erases a dab where the pass starts; true when the drawing changed.
    mutating func start(in drawing: inout Drawing) -> Bool {
        erase(along: [lastCell.centre], in: &drawing)
    }

    /// Sweeps the brush from the last cell to `cell`; true when the drawing changed.
    @discardableResult
    mutating func sweep(to cell: CanvasCell, in drawing: inout Drawing) -> Bool {
        guard cell != lastCell else { return false }
        defer { lastCell = cell }
        return erase(along: [lastCell.centre, cell.centre], in: &drawing)
    }

    /// Erases along a path in every group; each group the brush changed is recorded for undo
    /// before it is replaced (or removed, when nothing of it is left).
    @discardableResult
    private mutating func erase(along path: [CanvasPoint], in drawing: inout Drawing) -> Bool {
        var changed = false
        let reach = Self.bounds(of: path, growingBy: eraser.brush.radius)
        for group in drawing.groups where group.pieces.contains(where: { Self.mayTouch($0, reach) }) {
            let result = eraser.erase([group], along: path).first
            guard result != group else { continue }
            recording.noteBefore(group.key, in: drawing)
            changed = drawing.setGroup(result, for: group.key) || changed
        }
        return changed
    }

    /// A box around points, grown by a margin: (minX, minY, maxX, maxY).
    private static func bounds(of points: [CanvasPoint], growingBy margin: Double)
        -> (minX: Double, minY: Double, maxX: Double, maxY: Double)
    {
        var box = (
            minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity
        )
        for point in points {
            box = (
                min(box.minX, point.x), min(box.minY, point.y), max(box.maxX, point.x), max(box.maxY, point.y)
            )
        }
        return (box.minX - margin, box.minY - margin, box.maxX + margin, box.maxY + margin)
    }

    /// Whether a piece's ink can reach into a box: a cheap test that skips the eraser's exact
    /// geometry for the many strokes far from the brush. The margin is generous (a whole cell
    /// beyond half the width) since a false "maybe" only costs time.
    private static func mayTouch(
        _ stroke: Stroke, _ box: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    ) -> Bool {
        let margin = stroke.ink.width / 2 + 1
        let dx = stroke.transform.dx
        let dy = stroke.transform.dy
        let ink = bounds(of: stroke.path.map(\.point), growingBy: margin)
        return ink.minX + dx <= box.maxX && ink.maxX + dx >= box.minX && ink.minY + dy <= box.maxY
            && ink.maxY + dy >= box.minY
    }
}

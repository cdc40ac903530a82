import StrokeKit

/// One drag of the mask eraser: a dab where it starts, then a sweep from cell centre to cell
/// centre on every move, applied to the drawing at once so the user sees the ink go.
///
/// The whole drag is one sweep of every group it touches, stored under one sweep key (made when
/// the drag starts): each move adds its passes to that sweep, so the stroke as drawn is never
/// rewritten, and undo takes exactly this sweep back out, whatever others erased meanwhile.
struct MaskErasePass: Sendable {
    private let eraser: MaskEraser
    let sweepKey: SweepKey
    private(set) var lastCell: CanvasCell
    /// The groups this pass added passes to, in the order it first touched them.
    private(set) var touchedKeys: [StrokeKey] = []

    /// A pass starting at `cell` whose sweep is stored under `sweepKey`; `start(in:)` makes the
    /// first dab.
    init(brush: EraserBrush, sweepKey: SweepKey, at cell: CanvasCell) {
        eraser = MaskEraser(brush: brush)
        self.sweepKey = sweepKey
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

    /// The undo entry of the pass: the sweep it left on each group it touched.
    func entry(in drawing: Drawing) -> UndoEntry? {
        UndoEntry(
            changes: [],
            sweeps: touchedKeys.compactMap { key in
                drawing[key]?.sweeps[sweepKey].map {
                    UndoEntry.SweepChange(key: key, sweepKey: sweepKey, mask: $0)
                }
            })
    }

    /// Erases along a path in every group whose visible ink it reaches: the passes near each one
    /// are added to this pass's sweep of it. A pass that hides nothing more is not recorded.
    ///
    /// Only the groups the drawing's spatial index lists under the brush's reach are looked at:
    /// its bounds hold every piece that `mayTouch` would let through (both widen the path's box
    /// by half the width and a cell), so the result is the one a scan of every group gives.
    @discardableResult
    private mutating func erase(along path: [CanvasPoint], in drawing: inout Drawing) -> Bool {
        var changed = false
        let reach = Self.bounds(of: path, growingBy: eraser.brush.radius)
        let candidates = drawing.groups(in: Self.cells(of: reach))
        for group in candidates where group.pieces.contains(where: { Self.mayTouch($0, reach) }) {
            let passes = eraser.sweep(along: path, near: group)
            guard !passes.isEmpty else { continue }
            let erased = group.addingPasses(passes, toSweep: sweepKey)
            guard erased.pieces != group.pieces else { continue }
            if !touchedKeys.contains(group.key) { touchedKeys.append(group.key) }
            changed = drawing.setGroup(erased, for: group.key) || changed
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

    /// The cells a box reaches into: every cell it touches, its edges included.
    private static func cells(of box: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> CellRect {
        let minX = Int(box.minX.rounded(.down))
        let minY = Int(box.minY.rounded(.down))
        let maxX = Int(box.maxX.rounded(.down)) + 1
        let maxY = Int(box.maxY.rounded(.down)) + 1
        return CellRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Whether a piece's ink can reach into a box: a cheap test that skips the eraser's exact
    /// geometry for the many strokes far from the brush. The margin is generous (a whole cell
    /// beyond half the width) since a false "maybe" only costs time. A text is stored at its
    /// origin but covers cells to its right and below: its cells are the bounds.
    private static func mayTouch(
        _ stroke: Stroke, _ box: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    ) -> Bool {
        if !stroke.kind.isPath {
            let cells = SpatialIndex.bounds(of: stroke)
            return Double(cells.x) <= box.maxX && Double(cells.x + cells.width) >= box.minX
                && Double(cells.y) <= box.maxY && Double(cells.y + cells.height) >= box.minY
        }
        let margin = stroke.ink.width / 2 + 1
        let dx = stroke.transform.dx
        let dy = stroke.transform.dy
        let ink = bounds(of: stroke.path.map(\.point), growingBy: margin)
        return ink.minX + dx <= box.maxX && ink.maxX + dx >= box.minX && ink.minY + dy <= box.maxY
            && ink.maxY + dy >= box.minY
    }
}

import StrokeKit

/// The select tool's rubber band: from the cell where it was anchored to the pointer (or the
/// cursor). At pen up the strokes with ink in it become the selection; a band of one cell (a
/// click) selects the topmost stroke there.
struct SelectionBand: Sendable {
    let anchor: CanvasCell
    var end: CanvasCell

    /// The cells the band covers, both corners included.
    var rect: CellRect {
        CellRect(
            x: min(anchor.x, end.x), y: min(anchor.y, end.y), width: abs(end.x - anchor.x) + 1,
            height: abs(end.y - anchor.y) + 1)
    }
}

/// A drag of the selection: every move translates the selected groups by the pointer's step,
/// in the drawing at once (so the user sees them follow), and the whole drag is one undo step.
struct SelectionMove: Sendable {
    let keys: [StrokeKey]
    private(set) var lastCell: CanvasCell
    /// Where each group was placed before the drag.
    private var before: [StrokeKey: [StrokeTransform]] = [:]

    init(keys: [StrokeKey], at cell: CanvasCell, in drawing: Drawing) {
        self.keys = keys
        lastCell = cell
        for key in keys { before[key] = drawing[key]?.baseTransforms }
    }

    /// Moves the groups by the step from the last cell to `cell`; true when the drawing changed.
    mutating func move(to cell: CanvasCell, in drawing: inout Drawing) -> Bool {
        let dx = cell.x - lastCell.x
        let dy = cell.y - lastCell.y
        lastCell = cell
        return Self.translate(keys, dx: dx, dy: dy, in: &drawing)
    }

    /// The undo entry of the drag: each group's place before and after.
    func entry(in drawing: Drawing) -> UndoEntry? {
        UndoEntry(
            changes: [],
            moves: keys.compactMap { key in
                guard let old = before[key], let group = drawing[key] else { return nil }
                return UndoEntry.MoveChange(key: key, before: old, after: group.baseTransforms)
            })
    }

    /// Translates the groups of `keys` that are in the drawing; true when any moved.
    static func translate(_ keys: [StrokeKey], dx: Int, dy: Int, in drawing: inout Drawing) -> Bool {
        guard dx != 0 || dy != 0 else { return false }
        var changed = false
        for key in keys {
            guard let group = drawing[key] else { continue }
            changed = drawing.setGroup(group.translated(dx: Double(dx), dy: Double(dy)), for: key) || changed
        }
        return changed
    }
}

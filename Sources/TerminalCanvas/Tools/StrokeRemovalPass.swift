import StrokeKit

/// One click or drag of the stroke eraser: in every cell the pointer enters (the cells between
/// two reports included), the topmost group with visible ink there is removed.
///
/// A cell is acted on once per entry, so holding the pointer still removes one group, not the
/// whole stack under it.
struct StrokeRemovalPass: Sendable {
    private let mode: GlyphMode
    private(set) var lastCell: CanvasCell
    private(set) var recording = EditRecording()

    /// A pass starting at `cell`; `start(in:)` acts on that cell.
    init(mode: GlyphMode, at cell: CanvasCell) {
        self.mode = mode
        lastCell = cell
    }

    /// Removes the topmost group where the pass starts; true when there was one.
    mutating func start(in drawing: inout Drawing) -> Bool {
        removeTopmost(at: lastCell, in: &drawing)
    }

    /// Moves to `cell`, removing the topmost group in each cell entered; true when any was.
    @discardableResult
    mutating func move(to cell: CanvasCell, in drawing: inout Drawing) -> Bool {
        var changed = false
        for next in CellLine.cells(from: lastCell, to: cell).dropFirst() {
            changed = removeTopmost(at: next, in: &drawing) || changed
        }
        lastCell = cell
        return changed
    }

    /// Only the groups the drawing's spatial index lists in the cell can have ink there.
    @discardableResult
    private mutating func removeTopmost(at cell: CanvasCell, in drawing: inout Drawing) -> Bool {
        let candidates = drawing.groups(in: CellRect(x: cell.x, y: cell.y, width: 1, height: 1))
        guard let key = Raster.topmostKey(in: candidates, atCellX: cell.x, y: cell.y, mode: mode) else {
            return false
        }
        recording.noteBefore(key, in: drawing)
        return drawing.removeGroup(for: key) != nil
    }
}

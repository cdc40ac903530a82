import StrokeKit

/// One drag of the mask eraser: a dab where it starts, then a sweep from cell centre to cell
/// centre on every move, applied to the document at once so the user sees the ink go.
struct MaskErasePass: Sendable {
    private let eraser: MaskEraser
    private(set) var lastCell: CanvasCell
    private(set) var recording = EditRecording()

    /// A pass starting at `cell`; `start(in:)` makes the first dab.
    init(brush: EraserBrush, at cell: CanvasCell) {
        eraser = MaskEraser(brush: brush)
        lastCell = cell
    }

    /// Erases a dab where the pass starts; true when the document changed.
    mutating func start(in document: inout CanvasDocument) -> Bool {
        erase(along: [lastCell.centre], in: &document)
    }

    /// Sweeps the brush from the last cell to `cell`; true when the document changed.
    @discardableResult
    mutating func sweep(to cell: CanvasCell, in document: inout CanvasDocument) -> Bool {
        guard cell != lastCell else { return false }
        defer { lastCell = cell }
        return erase(along: [lastCell.centre, cell.centre], in: &document)
    }

    /// Erases along a path in every group; each group the brush changed is recorded for undo
    /// before it is replaced (or removed, when nothing of it is left).
    @discardableResult
    private mutating func erase(along path: [CanvasPoint], in document: inout CanvasDocument) -> Bool {
        var changed = false
        for group in document.groups {
            let result = eraser.erase([group], along: path).first
            guard result != group else { continue }
            recording.noteBefore(group.key, in: document)
            changed = document.setGroup(result, for: group.key) || changed
        }
        return changed
    }
}

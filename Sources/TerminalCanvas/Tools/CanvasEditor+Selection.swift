import StrokeKit

/// The select tool's selection: which groups it holds, its outline, and moving, deleting and
/// duplicating it.
extension CanvasEditor {
    /// How far right and down a duplicate lands from what it copies, in cells.
    public static let duplicateOffset = (dx: 2, dy: 1)

    /// The selected groups still in `drawing`, in key order (a peer may have removed some).
    public func selection(in drawing: Drawing) -> [StrokeKey] {
        selectedKeys.filter { drawing[$0] != nil }
    }

    /// The rectangle drawn around the selection: one cell outside the ink of the selected
    /// groups in the glyph mode on screen; nil when nothing selected shows.
    public func selectionOutline(in drawing: Drawing) -> CellRect? {
        let groups = selection(in: drawing).compactMap { drawing[$0] }
        guard let extent = Raster.extent(of: groups, mode: glyphMode) else { return nil }
        return CellRect(x: extent.x - 1, y: extent.y - 1, width: extent.width + 2, height: extent.height + 2)
    }

    /// What a band selects: the groups with ink in it, or for a band of one cell (a click) the
    /// topmost group there.
    func keys(in band: SelectionBand, of drawing: Drawing) -> [StrokeKey] {
        let rect = band.rect
        if rect.width == 1 && rect.height == 1 {
            let key = Raster.topmostKey(
                in: drawing.groups(in: rect), atCellX: rect.x, y: rect.y, mode: glyphMode)
            return key.map { [$0] } ?? []
        }
        return Raster.keys(in: drawing.groups(in: rect), touching: rect, mode: glyphMode)
    }

    /// An arrow key with a selection: the selection moves a cell, the cursor with it (one undo
    /// step per key). Without one, the cursor moves as with any tool.
    mutating func moveSelection(dx: Int, dy: Int, in drawing: inout Drawing, now: Int64) -> EditorFeedback {
        let keys = selection(in: drawing)
        guard !keys.isEmpty else {
            return EditorFeedback(
                documentChanged: moveCursor(to: cursor.offset(dx: dx, dy: dy), in: &drawing, now: now))
        }
        var move = SelectionMove(keys: keys, at: cursor, in: drawing)
        let target = cursor.offset(dx: dx, dy: dy)
        let changed = move.move(to: target, in: &drawing)
        if let entry = move.entry(in: drawing) { undoStack.record(entry) }
        _ = moveCursor(to: target, in: &drawing, now: now)
        return EditorFeedback(documentChanged: changed)
    }

    /// What Delete or `y` says with nothing selected.
    static let nothingSelected = "nothing selected: s, then drag over strokes"

    /// Removes the selected groups, as one undo step.
    mutating func deleteSelection(in drawing: inout Drawing) -> EditorFeedback {
        let finished = finishGesture(in: &drawing)
        let keys = selection(in: drawing)
        guard !keys.isEmpty else {
            return EditorFeedback(documentChanged: finished, message: Self.nothingSelected)
        }
        var changes: [UndoEntry.GroupChange] = []
        for key in keys {
            changes.append(.init(key: key, before: drawing[key], after: nil))
            drawing.removeGroup(for: key)
        }
        selectedKeys = []
        if let entry = UndoEntry(changes: changes) { undoStack.record(entry) }
        return EditorFeedback(documentChanged: true, message: Self.count(keys.count) + " deleted")
    }

    /// Copies the selected groups under new keys (on top of everything), moved by
    /// `duplicateOffset`; the copies become the selection. One undo step.
    mutating func duplicateSelection(in drawing: inout Drawing, now: Int64) -> EditorFeedback {
        let finished = finishGesture(in: &drawing)
        let keys = selection(in: drawing)
        guard !keys.isEmpty else {
            return EditorFeedback(documentChanged: finished, message: Self.nothingSelected)
        }
        var changes: [UndoEntry.GroupChange] = []
        var copies: [StrokeKey] = []
        for key in keys {
            guard let group = drawing[key] else { continue }
            let copyKey = keyClock.nextKey(nowMilliseconds: now)
            let copy = group.copy(as: copyKey).translated(
                dx: Double(Self.duplicateOffset.dx), dy: Double(Self.duplicateOffset.dy))
            drawing.insert(copy)
            changes.append(.init(key: copyKey, before: nil, after: copy))
            copies.append(copyKey)
        }
        selectedKeys = copies
        if let entry = UndoEntry(changes: changes) { undoStack.record(entry) }
        return EditorFeedback(documentChanged: true, message: Self.count(copies.count) + " duplicated")
    }

    /// The colour of the topmost ink in a cell (what the eyedropper and the middle button take);
    /// nil where there is none.
    public func inkColour(at cell: CanvasCell, in drawing: Drawing) -> UInt8? {
        let rect = CellRect(x: cell.x, y: cell.y, width: 1, height: 1)
        guard
            let key = Raster.topmostKey(
                in: drawing.groups(in: rect), atCellX: cell.x, y: cell.y, mode: glyphMode)
        else { return nil }
        return drawing[key]?.pieces.last?.ink.colour
    }

    private static func count(_ strokes: Int) -> String {
        strokes == 1 ? "1 stroke" : "\(strokes) strokes"
    }
}

extension CellRect {
    /// Whether the rectangle holds a cell.
    func contains(_ cell: CanvasCell) -> Bool {
        cell.x >= x && cell.x < maxX && cell.y >= y && cell.y < maxY
    }
}

import StrokeKit

extension CanvasEditor {
    /// Pen down at `cell` with the current tool (the marker draws like the pen, with its own
    /// ink); true when that already edited the drawing (an eraser's first dab).
    mutating func beginGesture(
        _ source: ToolGesture.Source, at cell: CanvasCell, in drawing: inout Drawing, now: Int64
    ) -> Bool {
        switch tool {
        case .pen, .marker:
            let key = keyClock.nextKey(nowMilliseconds: now)
            let ink = tool == .marker ? settings.markerInk : settings.ink
            let pen = PenStroke(key: key, ink: ink, at: cell, nowMilliseconds: now)
            active = (.drawing(pen), source)
            return false
        case .maskEraser:
            let sweepKey = keyClock.nextKey(nowMilliseconds: now)
            var pass = MaskErasePass(brush: settings.eraserBrush, sweepKey: sweepKey, at: cell)
            let changed = pass.start(in: &drawing)
            active = (.erasing(pass), source)
            return changed
        case .strokeEraser:
            var pass = StrokeRemovalPass(mode: glyphMode, at: cell)
            let changed = pass.start(in: &drawing)
            active = (.removing(pass), source)
            return changed
        }
    }

    /// Carries the running gesture to `cell`, if there is one; true when the drawing changed.
    mutating func extendGesture(to cell: CanvasCell, in drawing: inout Drawing, now: Int64) -> Bool {
        guard let (gesture, source) = active else { return false }
        switch gesture {
        case .drawing(var pen):
            pen.extend(to: cell, nowMilliseconds: now)
            active = (.drawing(pen), source)
            return false
        case .erasing(var pass):
            let changed = pass.sweep(to: cell, in: &drawing)
            active = (.erasing(pass), source)
            return changed
        case .removing(var pass):
            let changed = pass.move(to: cell, in: &drawing)
            active = (.removing(pass), source)
            return changed
        }
    }

    /// Pen up: the pen's stroke goes into the drawing; every gesture that changed something
    /// becomes one undo entry. True when the drawing changed now (only the pen's commit does:
    /// the erasers have already edited it).
    mutating func finishGesture(in drawing: inout Drawing) -> Bool {
        guard let (gesture, _) = active else { return false }
        active = nil
        switch gesture {
        case .drawing(let pen):
            guard let group = pen.group else { return false }
            let before = drawing[group.key]
            guard drawing.insert(group) else { return false }
            if let entry = UndoEntry(changes: [.init(key: group.key, before: before, after: group)]) {
                undoStack.record(entry)
            }
            return true
        case .erasing(let pass):
            if let entry = pass.entry(in: drawing) { undoStack.record(entry) }
            return false
        case .removing(let pass):
            if let entry = pass.recording.entry(in: drawing) { undoStack.record(entry) }
            return false
        }
    }
}

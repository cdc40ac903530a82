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
        case .text:
            // A click places the cursor; the text starts with the first key typed there.
            return false
        case .shape(let kind):
            let key = keyClock.nextKey(nowMilliseconds: now)
            var shape = ShapeGesture(kind: kind, key: key, ink: settings.ink, at: cell, nowMilliseconds: now)
            shape.isConstrained = constrainsShapes || (source == .pointer && pointerShiftHeld)
            active = (.shaping(shape), source)
            return false
        case .select:
            // A press on the selection drags it; anywhere else (and space) starts a band.
            let keys = selection(in: drawing)
            if source == .pointer, let outline = selectionOutline(in: drawing), outline.contains(cell) {
                active = (.movingSelection(SelectionMove(keys: keys, at: cell, in: drawing)), source)
            } else {
                active = (.selecting(SelectionBand(anchor: cell, end: cell)), source)
            }
            return false
        case .eyedropper:
            return false  // the app picks the colour (it knows the palette's names)
        }
    }

    /// A key typed with the text tool: starts a text at the cursor when none is being typed,
    /// and the cursor follows the caret.
    mutating func type(_ input: EditorCommand.TextInput, now: Int64) {
        guard tool == .text else { return }
        var entry: TextEntry
        if case .typing(let current) = active?.gesture {
            entry = current
        } else {
            guard case .character = input else { return }  // Enter or Backspace before any text
            entry = TextEntry(
                key: keyClock.nextKey(nowMilliseconds: now), origin: cursor, colour: settings.colour,
                createdAtMilliseconds: now)
        }
        switch input {
        case .character(let character): entry.insert(character)
        case .newLine: entry.newLine()
        case .backspace: entry.backspace()
        }
        active = (.typing(entry), .keyboard)
        followCaret(of: entry)
    }

    /// Removes every group but those of kinds this build does not know (kept untouched), as one
    /// undo entry.
    mutating func clear(_ drawing: inout Drawing, finished: Bool) -> EditorFeedback {
        var recording = EditRecording()
        var kept = 0
        for group in drawing.groups {
            guard !group.base.contains(where: \.kind.isUnknown) else {
                kept += 1
                continue
            }
            recording.noteBefore(group.key, in: drawing)
            drawing.removeGroup(for: group.key)
        }
        let entry = recording.entry(in: drawing)
        if let entry { undoStack.record(entry) }
        let count = entry?.changes.count ?? 0
        var message =
            count == 0
            ? "nothing to clear"
            : "cleared \(count == 1 ? "1 stroke" : "\(count) strokes") for everyone; u undoes it"
        if kept > 0 {
            message +=
                "; kept \(kept) of a kind this version cannot show (shown as \(Raster.placeholderGlyph(mode: glyphMode)))"
        }
        return EditorFeedback(documentChanged: finished || count > 0, message: message)
    }

    /// An arrow while text is typed: the caret moves within it.
    mutating func moveCaret(dx: Int, dy: Int) {
        guard case .typing(var entry) = active?.gesture else { return }
        entry.moveCaret(dx: dx, dy: dy)
        active = (.typing(entry), .keyboard)
        followCaret(of: entry)
    }

    /// Carries the running gesture to `cell`, if there is one; true when the drawing changed.
    mutating func extendGesture(to cell: CanvasCell, in drawing: inout Drawing, now: Int64) -> Bool {
        guard let (gesture, source) = active else { return false }
        switch gesture {
        case .drawing(var pen):
            pen.extend(to: cell, nowMilliseconds: now)
            active = (.drawing(pen), source)
            return false
        case .typing:
            return false
        case .erasing(var pass):
            let changed = pass.sweep(to: cell, in: &drawing)
            active = (.erasing(pass), source)
            return changed
        case .removing(var pass):
            let changed = pass.move(to: cell, in: &drawing)
            active = (.removing(pass), source)
            return changed
        case .shaping(var shape):
            shape.extend(to: cell)
            active = (.shaping(shape), source)
            return false
        case .selecting(var band):
            band.end = cell
            active = (.selecting(band), source)
            return false
        case .movingSelection(var move):
            let changed = move.move(to: cell, in: &drawing)
            active = (.movingSelection(move), source)
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
        case .drawing, .typing:
            let made: StrokeGroup?
            switch gesture {
            case .drawing(let pen): made = pen.group
            case .typing(let entry): made = entry.group
            default: made = nil
            }
            guard let group = made else { return false }
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
        case .shaping(let shape):
            guard let group = shape.group else { return false }
            let before = drawing[group.key]
            guard drawing.insert(group) else { return false }
            if let entry = UndoEntry(changes: [.init(key: group.key, before: before, after: group)]) {
                undoStack.record(entry)
            }
            return true
        case .selecting(let band):
            selectedKeys = keys(in: band, of: drawing)
            return false
        case .movingSelection(let move):
            if let entry = move.entry(in: drawing) { undoStack.record(entry) }
            return false
        }
    }

    /// The shape being drawn follows the constraint as it is now (`=` or Shift, which may
    /// change while dragging).
    mutating func updateShapeConstraint() {
        guard case .shaping(var shape) = active?.gesture, let source = active?.source else { return }
        shape.isConstrained = constrainsShapes || (source == .pointer && pointerShiftHeld)
        active = (.shaping(shape), source)
    }
}

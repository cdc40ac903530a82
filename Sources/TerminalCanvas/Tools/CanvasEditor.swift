import StrokeKit

/// The canvas's tools as one state machine: commands in (pointer reports, cursor keys, tool and
/// size keys, undo), edits of a `Drawing` out.
///
/// A gesture runs from pen down (a press, or space) to pen up (a release, or space again). The
/// pen keeps its stroke to itself until pen up, then adds it to the drawing as a new group; the
/// erasers edit the drawing as they move. Either way a finished gesture is one undo step. The
/// editor owns the keyboard cursor, the viewport that follows it, the settings and the undo stack;
/// the drawing is passed in, since the coordinator also reads and replaces it. Time comes in as
/// Unix milliseconds with each command.
public struct CanvasEditor: Sendable {
    public private(set) var tool: ToolKind = .pen
    /// The tool before the last change of tool: the eyedropper gives it back after a pick.
    public private(set) var previousTool: ToolKind = .pen
    public private(set) var settings: ToolSettings
    /// The keyboard cursor; pointer reports move it too, so it is also "where this peer is".
    public private(set) var cursor: CanvasCell
    public private(set) var viewport: CanvasViewport
    public internal(set) var undoStack: UndoStack
    /// Makes the keys of new strokes. Let it `observe` this peer's keys found in the replica, so
    /// a restarted peer never reuses one.
    public var keyClock: StrokeKeyClock
    /// The glyph mode on screen: the stroke eraser removes what is visible in it.
    public var glyphMode: GlyphMode
    var active: (gesture: ToolGesture, source: ToolGesture.Source)?
    /// The button went down off the canvas (on the status bar): its drags draw nothing, so a
    /// press there never starts a stroke, not even when the drag then moves onto the canvas.
    var pointerHeldOffCanvas = false
    /// The tool chosen before the text tool: Esc with no text being typed goes back to it.
    public private(set) var toolBeforeText: ToolKind = .pen
    /// The selected groups, in key order (some may have gone since: see `selection(in:)`).
    var selectedKeys: [StrokeKey] = []
    /// `=` turned the shape constraint on: lines at 45° steps, squares, circles.
    public private(set) var constrainsShapes = false
    /// Shift was held in the latest mouse report (the app sets it before each pointer command):
    /// it constrains a shape drawn with the mouse, where the terminal reports it.
    public var pointerShiftHeld = false

    /// An editor with the pen selected and the cursor at `cursor` (the middle of the screen when
    /// nil).
    public init(
        palette: [UInt8], keyClock: StrokeKeyClock, viewport: CanvasViewport, glyphMode: GlyphMode = .block,
        cursor: CanvasCell? = nil, undoLimit: Int = 200
    ) {
        settings = ToolSettings(palette: palette)
        self.keyClock = keyClock
        self.viewport = viewport
        self.glyphMode = glyphMode
        undoStack = UndoStack(limit: undoLimit)
        self.cursor = CanvasViewport.clamped(
            cursor ?? viewport.origin.offset(dx: viewport.screenWidth / 2, dy: viewport.canvasRows / 2))
        self.viewport.keepVisible(self.cursor)
    }

    /// Whether the keyboard pen is down (space pressed once).
    public var isPenDown: Bool {
        if case .typing = active?.gesture { return false }
        return active?.source == .keyboard
    }

    /// Whether text is being typed (the text tool's text has not ended yet).
    public var isTyping: Bool {
        if case .typing = active?.gesture { return true }
        return false
    }

    /// The pen stroke, shape or text being made, not yet in the drawing: drawn on top, sent as
    /// presence.
    public var inProgressStroke: Stroke? {
        switch active?.gesture {
        case .drawing(let pen): pen.stroke
        case .shaping(let shape): shape.stroke
        case .typing(let entry): entry.stroke
        default: nil
        }
    }

    /// The text being typed (lines split by line feeds) and its first cell, for presence; nil
    /// when none is, or nothing is typed yet.
    public var inProgressText: (origin: CanvasCell, text: String)? {
        guard case .typing(let entry) = active?.gesture, let text = entry.stroke?.text else { return nil }
        return (entry.origin, text.joined)
    }

    /// The cells of the pen stroke or shape being drawn (empty when none), for presence.
    public var inProgressCells: [CanvasCell] {
        switch active?.gesture {
        case .drawing(let pen): pen.cells
        case .shaping(let shape): shape.cells
        default: []
        }
    }

    /// The selection band being dragged (select tool), for the screen to outline.
    public var selectionBand: CellRect? {
        if case .selecting(let band) = active?.gesture { return band.rect }
        return nil
    }

    /// Handles one command at time `nowMilliseconds`.
    public mutating func handle(
        _ command: EditorCommand, in drawing: inout Drawing, nowMilliseconds: Int64
    ) -> EditorFeedback {
        switch command {
        case .pointer(let event):
            return EditorFeedback(
                documentChanged: handle(event, in: &drawing, nowMilliseconds: nowMilliseconds))
        case .pressOffCanvas:
            pointerHeldOffCanvas = true
            return EditorFeedback(documentChanged: finishGesture(in: &drawing))
        case .moveCursor(let dx, let dy) where isTyping:
            moveCaret(dx: dx, dy: dy)
            return .none
        case .type(let input):
            type(input, now: nowMilliseconds)
            return .none
        case .clearDrawing:
            let finished = finishGesture(in: &drawing)
            return clear(&drawing, finished: finished)
        case .moveCursor(let dx, let dy) where tool == .select && active == nil:
            return moveSelection(dx: dx, dy: dy, in: &drawing, now: nowMilliseconds)
        case .placeCursor(let cell):
            return EditorFeedback(
                documentChanged: moveCursor(to: cell, in: &drawing, now: nowMilliseconds))
        case .selectColourValue(let value):
            settings.selectColour(value: value)
            return .none
        case .toggleConstraint:
            constrainsShapes.toggle()
            updateShapeConstraint()
            return EditorFeedback(
                message: constrainsShapes
                    ? "shapes constrained: squares, circles, 45-degree lines (= again to free)"
                    : "shapes free (= constrains them)")
        case .deleteSelection:
            return deleteSelection(in: &drawing)
        case .duplicateSelection:
            return duplicateSelection(in: &drawing, now: nowMilliseconds)
        case .clearSelection:
            selectedKeys = []
            return .none
        case .moveCursor(let dx, let dy):
            return EditorFeedback(
                documentChanged: moveCursor(
                    to: cursor.offset(dx: dx, dy: dy), in: &drawing, now: nowMilliseconds))
        case .liftPen:
            return EditorFeedback(documentChanged: finishGesture(in: &drawing))
        case .togglePen:
            if active != nil { return EditorFeedback(documentChanged: finishGesture(in: &drawing)) }
            return EditorFeedback(
                documentChanged: beginGesture(.keyboard, at: cursor, in: &drawing, now: nowMilliseconds))
        case .selectTool(let next):
            let changed = finishGesture(in: &drawing)
            if next == .text && tool != .text { toolBeforeText = tool }
            if next != .select { selectedKeys = [] }
            if next != tool { previousTool = tool }
            tool = next
            return EditorFeedback(documentChanged: changed)
        case .selectColour(let slot):
            guard settings.selectColour(slot: slot) else {
                return EditorFeedback(message: "no colour \(slot): the palette has \(settings.palette.count)")
            }
            return .none
        case .growSize, .shrinkSize:
            let growing = command == .growSize
            guard settings.changeSize(for: tool, by: growing ? 1 : -1) else {
                return EditorFeedback(message: sizeLimitMessage(growing: growing))
            }
            return .none
        case .undo, .redo:
            // An action still in progress is finished first, so undo takes back what the user sees.
            let finished = finishGesture(in: &drawing)
            let outcome =
                command == .undo ? undoStack.undo(in: &drawing) : undoStack.redo(in: &drawing)
            var restored = false
            if case .applied(_, let keys, _, _) = outcome { restored = !keys.isEmpty }
            return EditorFeedback(documentChanged: finished || restored, message: outcome.message)
        case .pan(let direction):
            let step = viewport.panStep(direction)
            return pan(dx: step.dx, dy: step.dy, in: &drawing, now: nowMilliseconds)
        case .viewHome:
            return pan(dx: -viewport.origin.x, dy: -viewport.origin.y, in: &drawing, now: nowMilliseconds)
        case .panBy(let dx, let dy):
            return pan(dx: dx, dy: dy, in: &drawing, now: nowMilliseconds)
        }
    }

    /// Moves the view (never past the canvas origin) and the cursor along by as much as the view
    /// really moved, so the cursor keeps its place on screen.
    private mutating func pan(dx: Int, dy: Int, in drawing: inout Drawing, now: Int64) -> EditorFeedback {
        let moved = viewport.pan(dx: dx, dy: dy)
        return EditorFeedback(
            documentChanged: moveCursor(to: cursor.offset(dx: moved.dx, dy: moved.dy), in: &drawing, now: now)
        )
    }

    /// Why `[` or `]` changed nothing, so the key press is not met with silence.
    private func sizeLimitMessage(growing: Bool) -> String {
        guard let size = settings.size(for: tool) else {
            if tool == .strokeEraser { return "the stroke eraser removes whole strokes: it has no size" }
            if tool == .text { return "text takes one cell a character: it has no size" }
            return "the \(tool.name) tool has no size"
        }
        let label = StatusBarView.sizeLabel(size, ascii: true)
        return growing
            ? "\(tool.name) size \(label) is the largest" : "\(tool.name) size \(label) is the smallest"
    }

    /// Forgets undo and redo history (another drawing was opened) and drops a gesture in progress.
    public mutating func resetUndo() {
        undoStack = UndoStack(limit: undoStack.limit)
        active = nil
    }

    /// The terminal changed size: the view goes back to where the user put it, scrolled only as
    /// far as it takes to show the cursor.
    public mutating func resizeScreen(width: Int, height: Int) {
        viewport.resize(screenWidth: width, screenHeight: height, keeping: cursor)
    }

    /// Mouse reports. A drag with no gesture running means the press was lost (terminals drop
    /// them), so it starts one; a hover during a pointer gesture means the release was lost, so
    /// it ends it. While the keyboard pen is down, hovering does not move the cursor. After a
    /// press off the canvas, drags do nothing until the button comes up.
    private mutating func handle(
        _ event: PointerEvent, in drawing: inout Drawing, nowMilliseconds: Int64
    )
        -> Bool
    {
        let cell = CanvasViewport.clamped(event.cell)
        if pointerHeldOffCanvas {
            switch event {
            case .drag: return false
            case .press, .release, .hover: pointerHeldOffCanvas = false
            }
        }
        updateShapeConstraint()
        // While text is typed, only a press acts (on the text, or ending it): a drag or a release
        // must not carry the cursor off the caret, nor a release end the text.
        if isTyping, event != .press(event.cell) { return false }
        switch event {
        case .press:
            // A click on the text being typed moves its caret; anywhere else it ends the text.
            if case .typing(var entry) = active?.gesture, entry.placeCaret(at: cell) {
                active = (.typing(entry), .keyboard)
                followCaret(of: entry)
                return false
            }
            let finished = finishGesture(in: &drawing)
            cursor = cell
            return beginGesture(.pointer, at: cell, in: &drawing, now: nowMilliseconds) || finished
        case .drag:
            guard active != nil else {
                cursor = cell
                return beginGesture(.pointer, at: cell, in: &drawing, now: nowMilliseconds)
            }
            return moveCursor(to: cell, in: &drawing, now: nowMilliseconds)
        case .release:
            guard active != nil else {
                cursor = cell
                return false
            }
            let moved = moveCursor(to: cell, in: &drawing, now: nowMilliseconds)
            return finishGesture(in: &drawing) || moved
        case .hover:
            switch active?.source {
            case .keyboard: return false
            case .pointer:
                let finished = finishGesture(in: &drawing)
                cursor = cell
                return finished
            case nil:
                cursor = cell
                return false
            }
        }
    }

    /// The cursor goes where the caret of the text being typed is.
    mutating func followCaret(of entry: TextEntry) {
        cursor = CanvasViewport.clamped(entry.caretCell)
        viewport.keepVisible(cursor)
    }

    /// Moves the cursor (keeping it on screen, and off negative coordinates, which the view never
    /// shows) and carries a running gesture along.
    mutating func moveCursor(to target: CanvasCell, in drawing: inout Drawing, now: Int64)
        -> Bool
    {
        let cell = CanvasViewport.clamped(target)
        cursor = cell
        viewport.keepVisible(cell)
        return extendGesture(to: cell, in: &drawing, now: now)
    }
}

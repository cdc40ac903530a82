import StrokeKit

/// The canvas's tools as one state machine: commands in (pointer reports, cursor keys, tool and
/// size keys, undo), edits of a `CanvasDocument` out.
///
/// A gesture runs from pen down (a press, or space) to pen up (a release, or space again). The
/// pen keeps its stroke to itself until pen up, then adds it to the document as a new group; the
/// erasers edit the document as they move. Either way a finished gesture is one undo step. The
/// editor owns the keyboard cursor, the viewport that follows it, the settings and the undo stack;
/// the document is passed in, since the coordinator also reads and replaces it. Time comes in as
/// Unix milliseconds with each command.
public struct CanvasEditor: Sendable {
    public private(set) var tool: ToolKind = .pen
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
        self.cursor =
            cursor ?? viewport.origin.offset(dx: viewport.screenWidth / 2, dy: viewport.canvasRows / 2)
        self.viewport.keepVisible(self.cursor)
    }

    /// Whether the keyboard pen is down (space pressed once).
    public var isPenDown: Bool { active?.source == .keyboard }

    /// The pen stroke being drawn, not yet in the document: drawn on top, sent as presence.
    public var inProgressStroke: Stroke? {
        if case .drawing(let pen) = active?.gesture { return pen.stroke }
        return nil
    }

    /// The cells of the pen stroke being drawn (empty when none), for presence.
    public var inProgressCells: [CanvasCell] {
        if case .drawing(let pen) = active?.gesture { return pen.cells }
        return []
    }

    /// Handles one command at time `nowMilliseconds`.
    public mutating func handle(
        _ command: EditorCommand, in document: inout CanvasDocument, nowMilliseconds: Int64
    ) -> EditorFeedback {
        switch command {
        case .pointer(let event):
            return EditorFeedback(
                documentChanged: handle(event, in: &document, nowMilliseconds: nowMilliseconds))
        case .moveCursor(let dx, let dy):
            return EditorFeedback(
                documentChanged: moveCursor(
                    to: cursor.offset(dx: dx, dy: dy), in: &document, now: nowMilliseconds))
        case .liftPen:
            return EditorFeedback(documentChanged: finishGesture(in: &document))
        case .togglePen:
            if active != nil { return EditorFeedback(documentChanged: finishGesture(in: &document)) }
            return EditorFeedback(
                documentChanged: beginGesture(.keyboard, at: cursor, in: &document, now: nowMilliseconds))
        case .selectTool(let next):
            let changed = finishGesture(in: &document)
            tool = next
            return EditorFeedback(documentChanged: changed)
        case .selectColour(let slot):
            guard settings.selectColour(slot: slot) else {
                return EditorFeedback(message: "no colour \(slot): the palette has \(settings.palette.count)")
            }
            return .none
        case .growSize, .shrinkSize:
            _ = settings.changeSize(for: tool, by: command == .growSize ? 1 : -1)
            return .none
        case .undo, .redo:
            // An action still in progress is finished first, so undo takes back what the user sees.
            let finished = finishGesture(in: &document)
            let outcome =
                command == .undo ? undoStack.undo(in: &document) : undoStack.redo(in: &document)
            var restored = false
            if case .applied(_, let keys, _) = outcome { restored = !keys.isEmpty }
            return EditorFeedback(documentChanged: finished || restored, message: outcome.message)
        case .pan(let direction):
            let step = viewport.panStep(direction)
            viewport.pan(dx: step.dx, dy: step.dy)
            return EditorFeedback(
                documentChanged: moveCursor(
                    to: cursor.offset(dx: step.dx, dy: step.dy), in: &document, now: nowMilliseconds))
        }
    }

    /// The terminal changed size: the view keeps its origin but still shows the cursor.
    /// Forgets undo and redo history (another drawing was opened) and drops a gesture in progress.
    public mutating func resetUndo() {
        undoStack = UndoStack(limit: undoStack.limit)
        active = nil
    }

    public mutating func resizeScreen(width: Int, height: Int) {
        viewport.resize(screenWidth: width, screenHeight: height)
        viewport.keepVisible(cursor)
    }

    /// Mouse reports. A drag with no gesture running means the press was lost (terminals drop
    /// them), so it starts one; a hover during a pointer gesture means the release was lost, so
    /// it ends it. While the keyboard pen is down, hovering does not move the cursor.
    private mutating func handle(
        _ event: PointerEvent, in document: inout CanvasDocument, nowMilliseconds: Int64
    )
        -> Bool
    {
        let cell = event.cell
        switch event {
        case .press:
            let finished = finishGesture(in: &document)
            cursor = cell
            return beginGesture(.pointer, at: cell, in: &document, now: nowMilliseconds) || finished
        case .drag:
            guard active != nil else {
                cursor = cell
                return beginGesture(.pointer, at: cell, in: &document, now: nowMilliseconds)
            }
            return moveCursor(to: cell, in: &document, now: nowMilliseconds)
        case .release:
            guard active != nil else {
                cursor = cell
                return false
            }
            let moved = moveCursor(to: cell, in: &document, now: nowMilliseconds)
            return finishGesture(in: &document) || moved
        case .hover:
            switch active?.source {
            case .keyboard: return false
            case .pointer:
                let finished = finishGesture(in: &document)
                cursor = cell
                return finished
            case nil:
                cursor = cell
                return false
            }
        }
    }

    /// Moves the cursor (keeping it on screen) and carries a running gesture along.
    private mutating func moveCursor(to cell: CanvasCell, in document: inout CanvasDocument, now: Int64)
        -> Bool
    {
        cursor = cell
        viewport.keepVisible(cell)
        return extendGesture(to: cell, in: &document, now: now)
    }
}

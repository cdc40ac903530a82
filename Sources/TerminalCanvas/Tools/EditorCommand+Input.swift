extension EditorCommand {
    /// The editor's part of a key binding; nil for keys the app handles itself (help, quit,
    /// glyphs, the drawings list, escape, jumping to a peer).
    public init?(_ key: KeyCommand) {
        switch key {
        case .move(let direction): self = .moveCursor(dx: direction.offset.dx, dy: direction.offset.dy)
        case .pan(let direction): self = .pan(CanvasViewport.PanDirection(direction))
        case .togglePen: self = .togglePen
        case .selectTool(let tool): self = .selectTool(tool)
        case .shrinkBrush: self = .shrinkSize
        case .growBrush: self = .growSize
        case .selectColor(let slot): self = .selectColour(slot: slot)
        case .undo: self = .undo
        case .redo: self = .redo
        case .viewHome: self = .viewHome
        case .toggleConstraint: self = .toggleConstraint
        case .deleteSelection: self = .deleteSelection
        case .duplicateSelection: self = .duplicateSelection
        case .toggleHelp, .quit, .toggleGlyphs, .openDrawings, .escape, .jumpToPeer, .followPeer,
            .exportDrawing, .openPalette:
            return nil
        }
    }

    /// A left-button mouse report on the screen as a pointer event on the canvas; nil for the
    /// wheel.
    ///
    /// Only a press must land on the canvas: one on the status row becomes `pressOffCanvas`, so
    /// it starts nothing. A drag, release or hover off the canvas (on the status row, or out of
    /// the window as some terminals report while the button is held) goes to the nearest canvas
    /// cell, so a stroke released there still ends; with no canvas area at all, a release still
    /// lifts the pen.
    public init?(_ mouse: MouseEvent, viewport: CanvasViewport) {
        if mouse.kind == .press {
            guard let cell = viewport.canvasCell(atScreenX: mouse.x, y: mouse.y) else {
                self = .pressOffCanvas
                return
            }
            self = .pointer(.press(cell))
            return
        }
        guard let cell = viewport.nearestCanvasCell(toScreenX: mouse.x, y: mouse.y) else {
            guard mouse.kind == .release else { return nil }
            self = .liftPen
            return
        }
        switch mouse.kind {
        case .press: self = .pointer(.press(cell))
        case .drag: self = .pointer(.drag(cell))
        case .release: self = .pointer(.release(cell))
        case .move: self = .pointer(.hover(cell))
        case .scrollUp, .scrollDown: return nil
        }
    }
}

extension CanvasViewport.PanDirection {
    init(_ direction: Direction) {
        switch direction {
        case .up: self = .up
        case .down: self = .down
        case .left: self = .left
        case .right: self = .right
        }
    }
}

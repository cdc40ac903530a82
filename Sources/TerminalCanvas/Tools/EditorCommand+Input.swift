extension EditorCommand {
    /// The editor's part of a key binding; nil for keys the app handles itself (help, quit,
    /// glyphs, the drawings list, escape).
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
        case .toggleHelp, .quit, .toggleGlyphs, .openDrawings, .escape: return nil
        }
    }

    /// A left-button mouse report on the screen as a pointer event on the canvas; nil for reports
    /// on the status row, the wheel, and hover (which only moves presence).
    public init?(_ mouse: MouseEvent, viewport: CanvasViewport) {
        guard let cell = viewport.canvasCell(atScreenX: mouse.x, y: mouse.y) else { return nil }
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

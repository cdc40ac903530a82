import DrawingSync
import ReplicaSync
import StrokeKit
import TerminalCanvas

/// Terminal input: raw reads to events to editor commands, app commands and the drawings menu.
extension CanvasSession {
    /// Reads what the terminal sent. Readable-but-empty again and again means stdin hit its end
    /// (the terminal went away): quit rather than spin. A read after a resize signal may find
    /// nothing without that meaning anything, so it does not count.
    func readInput(afterResize: Bool = false) {
        let inputs = screen.readInputs()
        guard !inputs.isEmpty else {
            if afterResize { return }
            emptyReads += 1
            if emptyReads >= 64 {
                exitCode = 1
                quit()
            }
            return
        }
        emptyReads = 0
        // A prompt or the text tool switches the decoder to text, so decode one input at a time.
        for input in inputs {
            decoder.mode = takesText ? .text : .commands
            for event in decoder.decode(input) { handle(event) }
        }
        for event in decoder.endOfBatch() { handle(event) }
        decoder.mode = .commands
        render()
    }

    /// Whether printable keys are text now: a name prompt, the export prompt, or the text tool
    /// on the canvas. Too small to see any of them, keys stay commands, so q still quits.
    var takesText: Bool {
        guard !screenIsTooSmall else { return false }
        if let menu { return menu.takesText }
        if exportPrompt != nil { return true }
        return helpFirstLine == nil && editor.tool == .text
    }

    /// Whether the screen shows the too-small message instead of the canvas.
    var screenIsTooSmall: Bool {
        TooSmallView.isTooSmall(width: screen.size.width, height: screen.size.height)
    }

    func handle(_ event: InputEvent) {
        let tooSmall = screenIsTooSmall
        // The canvas is not on screen: nothing may change it unseen, and q quits even from a menu
        // the user cannot see.
        guard !tooSmall || TooSmallView.allows(event) else { return }
        if case .resize = event {
            editor.resizeScreen(width: screen.size.width, height: screen.size.height)
            // A stroke in progress ends (and is kept) where the canvas disappears.
            if tooSmall { apply(.liftPen) }
            return
        }
        if tooSmall, case .command(.quit) = event {
            quit()
            return
        }
        if menu != nil {
            handleMenu(event)
            return
        }
        if exportPrompt != nil {
            handleExportPrompt(event)
            return
        }
        if paletteOverlay != nil {
            handlePalette(event)
            return
        }
        switch event {
        case .command(let key):
            handle(key)
        case .mouse(let mouse):
            if swallowsPointerUntilRelease {
                // The click that closed an overlay: its drag must not draw once the box is gone.
                if mouse.kind == .release || mouse.kind == .move { swallowsPointerUntilRelease = false }
                return
            }
            if helpFirstLine != nil {
                handleMouseOverHelp(mouse)
                return
            }
            handleCanvasMouse(mouse)
        case .resize:
            break  // handled above, menu or not
        case .character(let character):
            if editor.tool == .text, helpFirstLine == nil { apply(.type(.character(character))) }
        case .enter:
            if editor.tool == .text, helpFirstLine == nil { apply(.type(.newLine)) }
        case .backspace:
            if editor.tool == .text, helpFirstLine == nil { apply(.type(.backspace)) }
        }
    }

    /// The help is modal: while it is open, the keys are its own. Up and down scroll it (when it
    /// is taller than the terminal); `?`, Esc and `q` close it; every other key is swallowed, so
    /// a key pressed to read about it (`x`) changes nothing behind the box.
    private func handleKeyOverHelp(_ key: KeyCommand) {
        switch key {
        case .move(let direction) where direction == .up || direction == .down:
            _ = scrollHelp(by: direction == .down ? 1 : -1)
        case .toggleHelp, .escape, .quit:
            helpFirstLine = nil
        default:
            break
        }
    }

    /// The mouse on the canvas: the left button draws with the current tool, the right one erases
    /// with the mask eraser while it is held (the tool comes back on release), the middle one
    /// picks the colour of the ink under it, and the wheel pans (sideways with Shift).
    func handleCanvasMouse(_ mouse: MouseEvent) {
        switch (mouse.kind, mouse.button) {
        case (.scrollUp, _), (.scrollDown, _):
            stopFollowing(saying: "stopped following")
            let forward = mouse.kind == .scrollDown
            let direction: CanvasViewport.PanDirection =
                mouse.shift ? (forward ? .right : .left) : (forward ? .down : .up)
            apply(.pan(direction))
        case (.press, .left) where editor.tool == .eyedropper:
            pickWithEyedropper(atScreenX: mouse.x, y: mouse.y)
        case (_, .left):
            editor.pointerShiftHeld = mouse.shift
            if let command = EditorCommand(mouse, viewport: editor.viewport) { apply(command) }
        case (_, .right):
            if mouse.kind == .press, toolBeforeRightButton == nil {
                toolBeforeRightButton = editor.tool
                apply(.selectTool(.maskEraser))
            }
            guard let tool = toolBeforeRightButton else { return }
            if let command = EditorCommand(mouse, viewport: editor.viewport) { apply(command) }
            if mouse.kind == .release {
                toolBeforeRightButton = nil
                apply(.selectTool(tool))
            }
        case (.press, .middle):
            pickColour(atScreenX: mouse.x, y: mouse.y)
        case (_, .middle):
            break
        }
    }

    /// The middle button (and the eyedropper): the colour of the topmost ink in the cell becomes
    /// the current colour; false when there is no ink there.
    @discardableResult
    func pickColour(atScreenX x: Int, y: Int) -> Bool {
        guard let cell = editor.viewport.canvasCell(atScreenX: x, y: y) else { return false }
        return pickColour(at: cell)
    }

    /// The mouse while the help is open: the wheel scrolls it, a click outside the box closes it,
    /// and nothing reaches the canvas (a drag meant to dismiss it draws nothing).
    private func handleMouseOverHelp(_ mouse: MouseEvent) {
        guard let first = helpFirstLine else { return }
        switch mouse.kind {
        case .scrollUp, .scrollDown:
            _ = scrollHelp(by: mouse.kind == .scrollDown ? 1 : -1)
        case .press:
            let box = helpOverlay(firstLine: first).frame(
                gridWidth: screen.size.width, gridHeight: screen.size.height)
            if let box, !(box.x..<box.maxX).contains(mouse.x) || !(box.y..<box.maxY).contains(mouse.y) {
                helpFirstLine = nil
            }
            swallowsPointerUntilRelease = true
        case .drag, .release, .move:
            break
        }
    }

    private func handle(_ key: KeyCommand) {
        if helpFirstLine != nil {
            handleKeyOverHelp(key)
            return
        }
        switch key {
        case .pan, .viewHome, .escape, .jumpToPeer:
            // Moving the view oneself (or going to a peer) ends following.
            stopFollowing(saying: "stopped following")
        default:
            break
        }
        switch key {
        case .quit:
            quit()
        case .toggleHelp:
            helpFirstLine = helpFirstLine == nil ? 0 : nil
        case .escape:
            helpFirstLine = nil
            // Esc ends the text being typed; with none, it leaves the text tool, or selects nothing.
            if editor.isTyping {
                apply(.liftPen)
            } else if editor.tool == .text {
                apply(.selectTool(editor.toolBeforeText))
            } else if !editor.selection(in: coordinator.drawing).isEmpty {
                apply(.clearSelection)
            }
        case .exportDrawing:
            apply(.liftPen)
            exportPrompt = ExportPrompt(path: ExportPrompt.defaultFileName(forDrawing: drawingName))
        case .toggleGlyphs:
            guard screen.supportsUnicode else {
                show("braille needs a UTF-8 terminal")
                return
            }
            editor.glyphMode = editor.glyphMode == .braille ? .block : .braille
        case .jumpToPeer:
            jumpToNextPeer()
        case .followPeer:
            toggleFollowing()
        case .openPalette:
            openPalette()
        case .togglePen where editor.tool == .eyedropper:
            pickWithEyedropper(at: editor.cursor)
        case .openDrawings:
            helpFirstLine = nil
            menu = DrawingsMenu(items: menuItems(drawings.entries), currentID: coordinator.drawingID)
        default:
            if let command = EditorCommand(key) { apply(command) }
        }
    }

    /// `f`: the cursor goes to the next peer's cursor on this drawing (in peer id order after
    /// the last one jumped to), and the view follows it. A keyboard pen is lifted first, so the
    /// jump draws no line.
    func jumpToNextPeer() {
        let here = PresenceUpdate.onCanvas(
            peers.values, drawingID: coordinator.drawingID, excluding: replica.peerID.rawValue)
        guard !here.isEmpty else {
            show("nobody else is on this drawing")
            return
        }
        let next = here.first { $0.peerID > (lastJumpedPeer ?? 0) } ?? here[0]
        lastJumpedPeer = next.peerID
        if editor.isPenDown { apply(.liftPen) }
        let target = CanvasCell(x: Int(next.cursor.x), y: Int(next.cursor.y))
        apply(.placeCursor(target))
        show("at \(PeerPresence(name: next.displayName, colour: next.colour, cursor: target).tag)'s cursor")
    }

    /// Scrolls the open help by `lines`; false when it fits the terminal and cannot scroll (the
    /// key then does what it does without the help).
    private func scrollHelp(by lines: Int) -> Bool {
        guard let first = helpFirstLine else { return false }
        let last = helpOverlay(firstLine: first).lastFirstLine(gridHeight: screen.size.height)
        guard last > 0 else { return false }
        helpFirstLine = min(max(first + lines, 0), last)
        return true
    }

    /// Runs an editor command on the drawing, as one edit of the coordinator's.
    func apply(_ command: EditorCommand) {
        loadReach(of: command)
        let revision = coordinator.drawing.revision
        let feedback = coordinator.edit(now: loop.now.milliseconds) { drawing in
            editor.handle(command, in: &drawing, nowMilliseconds: wallClock())
        }
        if let message = feedback.message { show(message) }
        if coordinator.drawing.revision != revision { editsMade() }
        publishPresence()
    }

    private func handleMenu(_ event: InputEvent) {
        guard var current = menu else { return }
        let action: DrawingsMenu.Action?
        if case .mouse(let mouse) = event {
            action = current.handle(
                mouse, gridWidth: screen.size.width, gridHeight: screen.size.height, glyphs: glyphs)
            swallowsPointerUntilRelease = mouse.kind == .press || mouse.kind == .drag
        } else {
            action = current.handle(event)
        }
        menu = current
        guard let action else { return }
        do {
            switch action {
            case .close:
                menu = nil
            case .open(let id):
                menu = nil
                if id != coordinator.drawingID { switchDrawing(to: id) }
            case .create(let name):
                let entry = try drawings.create(named: name)
                menu = nil
                switchDrawing(to: entry.id)
            case .rename(let id, _) where drawings.isOnlyListed(id),
                .delete(let id) where drawings.isOnlyListed(id),
                .restore(let id) where drawings.isOnlyListed(id),
                .deleteForever(let id) where drawings.isOnlyListed(id):
                // Its document is not here to change: opened, it is (and its changes sync).
                let name = (drawings.find(id) ?? drawings.findInTrash(id))?.name ?? id
                current.say("'\(name)' is on the relay only: open it first (enter)")
                menu = current
            case .rename(let id, let name):
                try drawings.rename(id: id, toUniqueName: name)
                if id == coordinator.drawingID { drawingName = name }
            case .delete(let id):
                let name = drawings.find(id)?.name ?? id
                try drawings.delete(id: id, now: wallClock())
                current.say("'\(name)' moved to the trash: u puts it back")
                menu = current
            case .restore(let id):
                let name = drawings.findInTrash(id)?.name ?? id
                try drawings.restore(id: id)
                current.say("'\(name)' is back")
                menu = current
            case .deleteForever(let id):
                let name = drawings.findInTrash(id)?.name ?? id
                try drawings.deleteForever(id: id)
                current.say("'\(name)' deleted for good")
                menu = current
            case .clear:
                menu = nil
                apply(.clearDrawing)
            }
        } catch {
            show(UserMessage.message(for: error))
        }
        menu?.update(items: menuItems(drawings.entries))
    }

    /// Saves the current drawing and opens another in its place.
    func switchDrawing(to id: String) {
        flushNow()
        coordinator.close()
        saveBoundsCache()
        coordinator = DrawingSyncCoordinator(
            replica: replica, drawingID: id, firstRegion: editor.reachOnScreen)
        subscribeOnRelays()
        drawingName = drawings.find(id)?.name ?? id
        drawingDeleted = false
        layerCache = CanvasLayerCache()  // it follows one drawing
        inkExtentCache = nil  // so does this
        handover.reset()
        followedPeer = nil  // the peer is on the drawing left behind
        onDrawingOpened?(id)
        reportWhereabouts()
        attachCoordinator()
        observeOwnKeys(coordinator.drawing.keys)
        observePendingKeys()
        editor.resetUndo()
        scheduleLoading()
    }
}

import StrokeKit
import TerminalCanvas

/// Picking colours: the eyedropper (`i`, and the middle button) and the palette overlay (`C`).
extension CanvasSession {
    /// The colour of the topmost ink in a canvas cell becomes the current colour; false (and a
    /// message) when there is no ink there.
    @discardableResult
    func pickColour(at cell: CanvasCell) -> Bool {
        loadOnScreen()
        guard let colour = editor.inkColour(at: cell, in: coordinator.drawing) else {
            show("no ink there to pick a colour from")
            return false
        }
        apply(.selectColourValue(colour))
        show("picked \(colourName(colour))")
        return true
    }

    /// The eyedropper's pick (a click, or space at the cursor): after a pick the tool used before
    /// it comes back, so picking a colour and drawing with it are two key presses apart.
    func pickWithEyedropper(atScreenX x: Int, y: Int) {
        guard let cell = editor.viewport.canvasCell(atScreenX: x, y: y) else { return }
        pickWithEyedropper(at: cell)
    }

    func pickWithEyedropper(at cell: CanvasCell) {
        guard pickColour(at: cell) else { return }
        let back = editor.previousTool == .eyedropper ? ToolKind.pen : editor.previousTool
        apply(.selectTool(back))
    }

    /// A colour as the messages name it: its key and name when a key holds it, its index
    /// otherwise.
    func colourName(_ colour: UInt8) -> String {
        guard let index = palette.colours.firstIndex(of: colour) else { return "colour #\(colour)" }
        return palette.name(slot: index + 1) ?? "colour \(index + 1)"
    }

    func openPalette() {
        helpFirstLine = nil
        paletteOverlay = PaletteOverlay(current: editor.settings.colour, glyphs: glyphs)
    }

    /// The palette overlay is modal: keys and the mouse are its own until it closes.
    func handlePalette(_ event: InputEvent) {
        guard var overlay = paletteOverlay else { return }
        let action: PaletteOverlay.Action?
        if case .mouse(let mouse) = event {
            action = overlay.handle(mouse, gridWidth: screen.size.width, gridHeight: screen.size.height)
            // The click that picked or closed: its drag must not draw once the box is gone.
            if mouse.kind == .press { swallowsPointerUntilRelease = true }
        } else {
            action = overlay.handle(event)
        }
        paletteOverlay = overlay
        switch action {
        case .pick(let colour)?:
            paletteOverlay = nil
            apply(.selectColourValue(colour))
            show("picked \(colourName(colour))")
        case .close?:
            paletteOverlay = nil
        case nil:
            break
        }
    }
}

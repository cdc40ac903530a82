import FoundationEssentials
import StrokeKit
import TerminalCanvas

/// `E`: the drawing written to a file from inside the app, with the same safe output as
/// `export -o` (a temporary file beside the target, renamed over it; a FIFO or device written in
/// place) and in the glyph mode on screen.
extension CanvasSession {
    func handleExportPrompt(_ event: InputEvent) {
        guard var prompt = exportPrompt else { return }
        if case .mouse(let mouse) = event {
            swallowsPointerUntilRelease = mouse.kind == .press || mouse.kind == .drag
        }
        let action = prompt.handle(event)
        exportPrompt = prompt
        switch action {
        case nil:
            return
        case .cancel:
            exportPrompt = nil
        case .write(let path, let format):
            exportPrompt = nil
            export(as: format, to: path)
        }
    }

    /// Writes the open drawing and says where it went (or why it did not).
    func export(as format: DrawingExportFormat, to path: String) {
        let target = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var svg = SVGExportOptions.dark
        svg.title = drawingName
        coordinator.finishLoading()
        let text = DrawingExporter.export(
            coordinator.drawing.groups, as: format, mode: editor.glyphMode, svg: svg)
        do {
            try CommandOutput.write(text, toFile: target)
        } catch {
            show(UserMessage.exportFailure(error))
            return
        }
        var said = "exported \(format.rawValue) to \(target)"
        if format != .svg,
            let warning = OriginClipping(of: coordinator.drawing.groups).warning(format: format.rawValue)
        {
            said += " (\(warning); .svg keeps them)"
        }
        show(said)
    }
}

/// The formats `drawtogether export` writes; raw values are the `--format` words.
public enum DrawingExportFormat: String, CaseIterable, Hashable, Sendable {
    /// The drawing's cells as plain text, as the screen shows them.
    case text
    /// The same cells with 256-colour escapes, for a terminal.
    case ansi
    /// A standalone SVG 1.1 picture.
    case svg
    /// The strokes themselves, in the `drawtogether-drawing` JSON format (`DrawingJSON`).
    case json
}

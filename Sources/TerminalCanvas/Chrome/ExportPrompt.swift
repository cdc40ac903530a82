import StrokeKit

/// The prompt `E` opens: where to export the drawing, as a path whose ending picks the format
/// (`.svg`, `.txt` for text, `.ans` for ANSI). It starts with a file named after the drawing in
/// the working directory; Enter writes, Esc cancels, Backspace and typing edit the path.
public struct ExportPrompt: Equatable, Sendable {
    public private(set) var path: String
    /// Why the last Enter wrote nothing (an ending that names no format), until the next key.
    public private(set) var notice: String?

    /// What the user chose.
    public enum Action: Equatable, Sendable {
        case write(path: String, format: DrawingExportFormat)
        case cancel
    }

    /// The longest path the prompt takes, in characters.
    public static let pathLimit = 1024

    public init(path: String) {
        self.path = path
    }

    /// A file name for a drawing's SVG: its name, with what a file name cannot hold (a slash, a
    /// control character) and a leading dot or dash replaced by `_`.
    public static func defaultFileName(forDrawing name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            let unsafe =
                scalar == "/" || scalar.value < 0x20 || scalar.value == 0x7F || !StrokeText.isShowable(scalar)
            scalars.append(unsafe ? "_" : scalar)
        }
        var base = String(scalars).trimmingWhitespace
        if base.hasPrefix(".") || base.hasPrefix("-") { base = "_" + base.dropFirst() }
        return (base.isEmpty ? "drawing" : base) + ".svg"
    }

    /// The format a path's ending names; nil for any other ending.
    public static func format(ofPath path: String) -> DrawingExportFormat? {
        let lower = path.lowercased()
        if lower.hasSuffix(".svg") { return .svg }
        if lower.hasSuffix(".txt") { return .text }
        if lower.hasSuffix(".ans") || lower.hasSuffix(".ansi") { return .ansi }
        return nil
    }

    /// Handles one event; returns an action when the user finished.
    public mutating func handle(_ event: InputEvent) -> Action? {
        notice = nil
        switch event {
        case .character(let character):
            guard !character.isNewline else { break }
            guard path.count < Self.pathLimit else {
                notice = "\(Self.pathLimit) characters at most"
                break
            }
            path.append(character)
        case .backspace:
            if !path.isEmpty { path.removeLast() }
        case .enter:
            let trimmed = path.trimmingWhitespace
            guard !trimmed.isEmpty else {
                notice = "type a file name first"
                break
            }
            guard let format = Self.format(ofPath: trimmed) else {
                notice = "end the name in .svg, .txt (text) or .ans (ANSI) to choose the format"
                break
            }
            return .write(path: trimmed, format: format)
        case .command(.escape):
            return .cancel
        case .mouse(let mouse) where mouse.kind == .press:
            return .cancel
        default:
            break
        }
        return nil
    }

    /// The hint shown above the prompt.
    public var hint: String {
        notice ?? "export: .svg, .txt (text) or .ans (ANSI) picks the format; Enter writes, Esc cancels"
    }

    /// Paints the prompt on `row` (with its hint on the row above), in reverse video across the
    /// grid; the end of the path, where the caret is, stays in view.
    public func paint(into grid: inout CellGrid, row: Int, glyphs: ChromeGlyphs) {
        let label = " export to: "
        let room = grid.width - label.terminalColumns - 2
        var shown = path
        if shown.terminalColumns > room, room > 1 {
            while shown.terminalColumns > room - 1 { shown.removeFirst() }
            shown = String(glyphs.ellipsis) + shown
        }
        let line = label + shown + "_"
        grid.put(
            line + String(repeating: " ", count: max(0, grid.width - line.terminalColumns)), x: 0, y: row,
            attributes: .reverse)
        if row > 0 {
            MessageLineView(message: hint, glyphs: glyphs, maximumLines: 1).paint(into: &grid, row: row - 1)
        }
    }
}

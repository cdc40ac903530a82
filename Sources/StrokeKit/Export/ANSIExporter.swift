/// `export --format ansi`: the cells of `TextExporter` with xterm 256-colour escapes.
public enum ANSIExporter {
    static let escape = "\u{1B}["

    /// A cell's colours are set with one `ESC[…m` only when they differ from what the line
    /// already has: the foreground (`38;5;N`, or `39` for the default and for default ink) only before a glyph,
    /// since a space shows none; the background (`48;5;N`, or `49`) before any cell, spaces
    /// included, since a marker's band shows in its background. A line that set a colour ends
    /// with `ESC[0m` before its line feed. Every line thus starts in the terminal's default
    /// colours, so a pager, `grep` or `head` never bleeds colour from one line into the next or
    /// into the prompt.
    public static func export(_ groups: [StrokeGroup], mode: GlyphMode = .block) -> String {
        var output = ""
        DrawingExporter.forEachBand(of: groups, mode: mode) { band in
            for y in 0..<band.height { output += line(y, of: band) }
        }
        return output
    }

    /// One row with its escapes, reset and line feed.
    private static func line(_ y: Int, of grid: CellGrid) -> String {
        var lastShown = -1
        for x in 0..<grid.width where grid[x, y].glyph != " " || grid[x, y].background != nil {
            lastShown = x
        }
        var foreground: UInt8?
        var background: UInt8?
        var line = String.UnicodeScalarView()
        for x in 0..<(lastShown + 1) {
            let cell = grid[x, y]
            // The right half of a wide glyph: the terminal fills it with the glyph itself.
            if cell.isContinuation { continue }
            var codes: [String] = []
            if cell.glyph != " " && cell.foreground != foreground {
                // Default ink is the reader's own foreground, as on the screen.
                codes.append(
                    cell.foreground.flatMap { $0 == Ink.defaultInkColour ? nil : "38;5;\($0)" } ?? "39")
                foreground = cell.foreground
            }
            if cell.background != background {
                codes.append(cell.background.map { "48;5;\($0)" } ?? "49")
                background = cell.background
            }
            if !codes.isEmpty {
                line.append(contentsOf: (escape + codes.joined(separator: ";") + "m").unicodeScalars)
            }
            line.append(cell.glyph)
        }
        let reset = foreground != nil || background != nil ? escape + "0m" : ""
        return String(line) + reset + "\n"
    }
}

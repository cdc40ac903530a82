/// `export --format ansi`: the cells of `TextExporter` with xterm 256-colour escapes.
public enum ANSIExporter {
    static let escape = "\u{1B}["

    /// Each inked cell is preceded by `ESC[38;5;Nm` only when its colour differs from the
    /// previous inked cell's on that line (spaces do not show a foreground, so they never need
    /// one); a line that set a colour ends with `ESC[0m` before its line feed. Every line thus
    /// starts in the terminal's default colours, so a pager, `grep` or `head` never bleeds colour
    /// from one line into the next or into the prompt.
    public static func export(_ groups: [StrokeGroup], mode: GlyphMode = .block) -> String {
        var output = ""
        DrawingExporter.forEachBand(of: groups, mode: mode) { band in
            for y in 0..<band.height { output += line(y, of: band) }
        }
        return output
    }

    /// One row with its escapes, reset and line feed.
    private static func line(_ y: Int, of grid: CellGrid) -> String {
        var lastInked = -1
        for x in 0..<grid.width where grid[x, y].glyph != " " { lastInked = x }
        var current: UInt8?
        var line = String.UnicodeScalarView()
        for x in 0..<(lastInked + 1) {
            let cell = grid[x, y]
            if cell.glyph != " " && cell.foreground != current {
                let code = cell.foreground.map { "38;5;\($0)" } ?? "39"
                line.append(contentsOf: (escape + code + "m").unicodeScalars)
                current = cell.foreground
            }
            line.append(cell.glyph)
        }
        return String(line) + (current != nil ? escape + "0m" : "") + "\n"
    }
}

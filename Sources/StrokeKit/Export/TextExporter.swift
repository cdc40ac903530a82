/// `export --format text`: the drawing's cells from the canvas origin to its extent, with the
/// screen's glyphs and no UI chrome.
public enum TextExporter {
    /// One line a row, trailing spaces trimmed, each line ending in a line feed (so the output is
    /// a proper text file and `cat` leaves the prompt on its own line); an empty drawing is the
    /// empty string. Blank rows above the first ink are kept: they are part of the canvas from
    /// the origin.
    public static func export(_ groups: [StrokeGroup], mode: GlyphMode = .block) -> String {
        var output = ""
        DrawingExporter.forEachBand(of: groups, mode: mode) { band in
            for row in band.rows {
                output += row
                output += "\n"
            }
        }
        return output
    }
}

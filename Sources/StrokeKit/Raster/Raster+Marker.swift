/// How a marker (highlighter) shows in a cell.
///
/// A marker is an underlay: it colours the cell's background and never replaces pen ink, whatever
/// the key order of the two. Among markers the topmost one's colour wins, as among pens.
extension Raster {
    /// The cell for what inks it: the pen's glyph and colour (nil when no pen inks the cell) over
    /// the topmost marker's colour (nil when no marker does); nil when neither does.
    ///
    /// - Pen over marker: the pen's glyph and foreground on the marker's background. When both
    ///   have the same colour the background is left out, or the ink would vanish into the band;
    ///   the pen's glyph then reads as a cut-out of the highlight.
    /// - Marker alone: `mode.markerGlyph` in the marker's colour on the marker's background. The
    ///   background makes the band one even colour whether or not ink crosses it (cells with ink
    ///   carry it too); the shade glyph keeps the highlight visible where colour is lost (text
    ///   export, a terminal without colours).
    static func layered(pen: Cell?, marker: UInt8?, mode: GlyphMode) -> Cell? {
        guard let marker else { return pen }
        guard var pen else { return Cell(mode.markerGlyph, foreground: marker, background: marker) }
        if pen.foreground != marker { pen.background = marker }
        return pen
    }
}

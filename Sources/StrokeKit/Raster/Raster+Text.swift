/// How text and kinds from a newer build show: as glyphs in cells of their own, not as samples.
///
/// In z-order with the pens: a character covers the pen ink below it in its cell, and pen ink
/// drawn later covers the character. A marker's band lies under both.
extension Raster {
    /// One cell of a stroke that shows as a glyph: a character of a text (each half of a wide
    /// one), or the placeholder of an unknown kind.
    struct GlyphCell: Equatable, Sendable {
        let x: Int
        let y: Int
        let glyph: Unicode.Scalar
        let colour: UInt8
        /// 1 for a narrow glyph, 2 for a wide one (then `half` is 0 on its left cell, 1 on its right).
        let columns: Int
        let half: Int
    }

    /// What a stroke of a kind this build does not know shows at its anchor.
    public static func placeholderGlyph(mode: GlyphMode) -> Unicode.Scalar {
        mode == .ascii ? "?" : "\u{25C7}"
    }

    /// The glyph cells of a stroke in `mode`; empty for a path. Without UTF-8 (ASCII mode) a
    /// character outside ASCII shows as `?` in each of its cells.
    static func glyphCells(of stroke: Stroke, mode: GlyphMode) -> [GlyphCell] {
        switch stroke.kind {
        case .path:
            return []
        case .unknown:
            let anchor = stroke.transform.apply(stroke.origin)
            return [
                GlyphCell(
                    x: Int(anchor.x.rounded(.down)), y: Int(anchor.y.rounded(.down)),
                    glyph: placeholderGlyph(mode: mode), colour: stroke.ink.colour, columns: 1, half: 0)
            ]
        case .text:
            guard let layout = TextLayout(stroke) else { return [] }
            return layout.visibleCells.map { cell in
                let scalar = cell.placement.scalar
                if mode == .ascii && scalar.value > 0x7E {
                    return GlyphCell(
                        x: cell.x, y: cell.y, glyph: "?", colour: stroke.ink.colour, columns: 1, half: 0)
                }
                return GlyphCell(
                    x: cell.x, y: cell.y, glyph: scalar, colour: stroke.ink.colour,
                    columns: cell.placement.columns, half: cell.placement.half)
            }
        }
    }

    /// The cells a stroke's glyphs take, as one rectangle; nil when it shows none.
    static func glyphBounds(of stroke: Stroke, mode: GlyphMode) -> CellRect? {
        var bounds: CellRect?
        for cell in glyphCells(of: stroke, mode: mode) {
            let rect = CellRect(x: cell.x, y: cell.y, width: 1, height: 1)
            bounds = bounds.map { $0.union(rect) } ?? rect
        }
        return bounds
    }
}

/// A drawing (its stroke groups) to the text of one export format: pure functions, so two
/// replicas holding the same groups export the same bytes.
///
/// Every exporter first puts the groups in `canonicalOrder`, so the order in which a replica
/// happens to hold or list them never shows in the output.
public enum DrawingExporter {
    /// The drawing in `format`. `mode` chooses the glyphs of `text` and `ansi` (as on the screen);
    /// `svg` sets the picture's options.
    public static func export(
        _ groups: [StrokeGroup], as format: DrawingExportFormat, mode: GlyphMode = .block,
        svg: SVGExportOptions = SVGExportOptions()
    ) -> String {
        switch format {
        case .text: TextExporter.export(groups, mode: mode)
        case .ansi: ANSIExporter.export(groups, mode: mode)
        case .svg: SVGExporter.export(groups, options: svg)
        case .json: DrawingJSON.encode(groups)
        }
    }

    /// The groups sorted by key (z-order), without those the sweeps erased completely (nothing of
    /// them shows). A drawing never holds one key twice, but should a caller pass duplicates,
    /// they are ordered by their encoding so the result still does not depend on the input order.
    public static func canonicalOrder(_ groups: [StrokeGroup]) -> [StrokeGroup] {
        groups.filter { !$0.isErasedCompletely }.sorted { lhs, rhs in
            if lhs.key != rhs.key { return lhs.key < rhs.key }
            return StrokeGroupCodec.encode(lhs).lexicographicallyPrecedes(StrokeGroupCodec.encode(rhs))
        }
    }

    /// The cells of the drawing from the canvas origin (0, 0) to the far corner of its extent:
    /// what `text` and `ansi` print. Ink left of or above the origin is outside the canvas the
    /// screen shows and is left out; a drawing with no visible ink there gives an empty grid.
    /// This holds the whole grid at once; the exporters go band by band instead.
    public static func cells(of groups: [StrokeGroup], mode: GlyphMode = .block) -> CellGrid {
        let ordered = canonicalOrder(groups)
        guard let extent = Raster.extent(of: ordered, mode: mode), extent.maxX > 0, extent.maxY > 0 else {
            return CellGrid(width: 0, height: 0)
        }
        return Raster.render(
            ordered, viewport: Viewport(x: 0, y: 0, width: extent.maxX, height: extent.maxY), mode: mode)
    }

    /// About how many cells one band of `forEachBand` holds (at least one row).
    static let bandCells = 1 << 18

    /// The rows of `cells(of:mode:)`, top first, as consecutive grids of at most about
    /// `bandCells` cells each, so a drawing far from the origin (the canvas reaches 2^20 cells
    /// each way) never needs its whole grid in memory. The blank rows above the ink come as one
    /// grid of width 0.
    static func forEachBand(of groups: [StrokeGroup], mode: GlyphMode, _ body: (CellGrid) -> Void) {
        let ordered = canonicalOrder(groups)
        guard let extent = Raster.extent(of: ordered, mode: mode), extent.maxX > 0, extent.maxY > 0 else {
            return
        }
        var top = max(0, extent.y)
        if top > 0 { body(CellGrid(width: 0, height: top)) }
        let bandHeight = max(1, bandCells / extent.maxX)
        while top < extent.maxY {
            let height = min(bandHeight, extent.maxY - top)
            body(
                Raster.render(
                    ordered, viewport: Viewport(x: 0, y: top, width: extent.maxX, height: height), mode: mode)
            )
            top += height
        }
    }
}

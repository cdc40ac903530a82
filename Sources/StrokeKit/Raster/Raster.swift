/// Stroke groups to a grid of character cells.
///
/// Groups are drawn in key order, so a later key is on top; a cell takes the colour of the
/// topmost pen stroke that inks any of its samples (a terminal cell has one foreground colour).
/// Marker strokes are an underlay that never hides pen ink: see `layered(pen:marker:mode:)`.
public enum Raster {
    /// The cells of `viewport`, with blank cells where there is no ink.
    public static func render(_ groups: [StrokeGroup], viewport: Viewport, mode: GlyphMode) -> CellGrid {
        RasterLayer(groups, viewport: viewport, mode: mode).grid
    }

    /// `render(_:viewport:mode:)` with the viewport spelled out.
    public static func render(
        _ groups: [StrokeGroup], origin: (x: Int, y: Int), width: Int, height: Int, mode: GlyphMode
    ) -> CellGrid {
        render(groups, viewport: Viewport(x: origin.x, y: origin.y, width: width, height: height), mode: mode)
    }

    /// The smallest rectangle of cells holding every visible sample (pen or marker) in `mode`;
    /// nil when nothing is visible.
    public static func extent(of groups: [StrokeGroup], mode: GlyphMode = .block) -> CellRect? {
        let lattice = mode.lattice
        let sampler = InkSampler(lattice: lattice)
        var bounds: CellRect?
        for stroke in strokesInZOrder(groups) {
            if !stroke.kind.isPath {
                if let rect = glyphBounds(of: stroke, mode: mode) {
                    bounds = bounds.map { $0.union(rect) } ?? rect
                }
                continue
            }
            guard let samples = sampler.visibleBounds(of: stroke) else { continue }
            let first = lattice.cell(ofColumn: samples.columns.lowerBound, row: samples.rows.lowerBound)
            let last = lattice.cell(ofColumn: samples.columns.upperBound, row: samples.rows.upperBound)
            let rect = CellRect(
                x: first.x, y: first.y, width: last.x - first.x + 1, height: last.y - first.y + 1)
            bounds = bounds.map { $0.union(rect) } ?? rect
        }
        return bounds
    }

    /// The key of the topmost group with visible ink in a canvas cell (in `mode`'s lattice), or
    /// nil: what a stroke eraser or a picker under the cursor acts on.
    ///
    /// Topmost as the screen shows it: markers lie under every pen, so the topmost pen with ink
    /// in the cell comes first, and only a cell without pen ink gives its topmost marker.
    public static func topmostKey(in groups: [StrokeGroup], atCellX x: Int, y: Int, mode: GlyphMode)
        -> StrokeKey?
    {
        let lattice = mode.lattice
        let sampler = InkSampler(lattice: lattice)
        let (columns, rows) = lattice.samples(in: CellRect(x: x, y: y, width: 1, height: 1))
        let topFirst = strokesInZOrder(groups).reversed()
        func inks(_ stroke: Stroke) -> Bool {
            // A placeholder is never picked: a kind this build does not know is left untouched.
            if case .text = stroke.kind {
                return glyphCells(of: stroke, mode: mode).contains { $0.x == x && $0.y == y }
            }
            return !sampler.forEachVisibleSample(of: stroke, columns: columns, rows: rows) { _, _ in false }
        }
        let pen = topFirst.first { $0.ink.tool != .marker && inks($0) }
        return (pen ?? topFirst.first { $0.ink.tool == .marker && inks($0) })?.key
    }

    /// Every piece, bottom first: groups by key, pieces in group order.
    static func strokesInZOrder(_ groups: [StrokeGroup]) -> [Stroke] {
        // Most callers pass groups in key order already (`Drawing.groups(in:)`): no sort then.
        if zip(groups, groups.dropFirst()).allSatisfy({ $0.key < $1.key }) {
            return groups.flatMap(\.pieces)
        }
        return inKeyOrder(groups).flatMap(\.pieces)
    }

    /// The groups sorted by key; groups with equal keys stay in the order given.
    static func inKeyOrder(_ groups: [StrokeGroup]) -> [StrokeGroup] {
        groups.enumerated()
            .sorted { lhs, rhs in
                lhs.element.key != rhs.element.key
                    ? lhs.element.key < rhs.element.key : lhs.offset < rhs.offset
            }
            .map(\.element)
    }
}

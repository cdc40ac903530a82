/// The ink of a viewport before it becomes cells: per cell the pen samples that are inked and
/// the colour of the topmost pen there, and the colour of the topmost marker.
///
/// `Raster.render` is a layer made and turned into cells at once. Keeping the layer lets a caller
/// add strokes on top later — the strokes other peers are drawing, the one being drawn here —
/// without rasterising the drawing again: their samples combine with the drawing's in each cell
/// (half blocks and braille dots merge) exactly as if everything had been rendered together.
public struct RasterLayer: Equatable, Sendable {
    public let viewport: Viewport
    public let mode: GlyphMode
    private var penBits: [UInt8]
    private var penColours: [UInt8]
    /// A marker's samples only decide whether the cell is highlighted, so a colour is enough.
    private var markerColours: [UInt8?]
    /// Cells showing a glyph of a text or a placeholder (few, so kept by index): each covers the
    /// pen ink drawn before it, and pen ink drawn after it covers it.
    private var glyphCells: [Int: Raster.GlyphCell] = [:]

    /// The layer of `groups`, drawn in key order.
    public init(_ groups: [StrokeGroup], viewport: Viewport, mode: GlyphMode) {
        self.init(blank: viewport, mode: mode)
        drawTopFirst(groups, in: viewport)
    }

    /// The layer of the groups of `drawing` under the viewport (found with its spatial index).
    /// A large drawing's layer is drawn in bands of rows at once, one a processor
    /// (`bandCount(for:viewport:)`).
    public init(_ drawing: Drawing, viewport: Viewport, mode: GlyphMode) {
        self.init(
            drawing, viewport: viewport, mode: mode, bands: Self.bandCount(for: drawing, viewport: viewport))
    }

    /// The layer of the groups of `drawing` under the viewport, its rows cut into `bands` bands
    /// drawn at once (one band: on this thread alone); every count gives the same layer.
    init(_ drawing: Drawing, viewport: Viewport, mode: GlyphMode, bands: Int) {
        self.init(blank: viewport, mode: mode)
        let parts = Self.bands(of: viewport, count: bands)
        if parts.count < 2 {
            drawTopFirst(from: drawing.spatialIndex, in: [viewport], within: viewport)
        } else {
            drawTopFirst(from: drawing.spatialIndex, inBands: parts)
        }
    }

    private init(blank viewport: Viewport, mode: GlyphMode) {
        self.viewport = viewport
        self.mode = mode
        let count = max(viewport.width, 0) * max(viewport.height, 0)
        penBits = [UInt8](repeating: 0, count: count)
        penColours = [UInt8](repeating: 0, count: count)
        markerColours = [UInt8?](repeating: nil, count: count)
    }

    /// Draws `groups` over what the layer holds (in key order among themselves): the caller
    /// passes groups that belong above every group already in it.
    public mutating func add(_ groups: [StrokeGroup]) {
        draw(groups, in: viewport)
    }

    /// Rasterises the cells of `region` again from `groups`: the region (clipped to the viewport)
    /// is cleared, then `groups` are drawn into it in key order. The caller passes every group
    /// with ink there (`Drawing.groups(in:)`), so the region ends as a fresh layer would have it;
    /// the cells around it are left as they are.
    public mutating func redraw(_ region: CellRect, from groups: [StrokeGroup]) {
        guard let region = clear(region) else { return }
        drawTopFirst(groups, in: region)
    }

    /// `redraw(_:from:)` with every group of `drawing` whose ink may reach into `region`.
    public mutating func redraw(_ region: CellRect, from drawing: Drawing) {
        redraw([region], from: drawing)
    }

    /// `redraw(_:from:)` of several regions (overlapping or not) at once: regions near each
    /// other are redrawn together, with one query of the index for the rectangle around them
    /// and one walk of the groups there, in which only their own cells are open; returns how
    /// many cells of the viewport were redrawn (each once).
    @discardableResult
    public mutating func redraw(_ regions: [CellRect], from drawing: Drawing) -> Int {
        let inView = regions.compactMap { $0.intersection(viewport) }
        guard let first = inView.first else { return 0 }
        for cluster in Self.clusters(of: inView) {
            // Cleared just before the walk: a walk opens only blank cells, and a cell two
            // clusters share is drawn whole by the second.
            for region in cluster.regions { _ = clear(region) }
            drawTopFirst(from: drawing.spatialIndex, in: cluster.regions, within: cluster.bounds)
        }
        return Self.cellCount(of: inView, within: inView.dropFirst().reduce(first) { $0.union($1) })
    }

    /// Clears the cells of `region` in the viewport; the part of it in the viewport, if any.
    private mutating func clear(_ region: CellRect) -> CellRect? {
        guard let region = region.intersection(viewport) else { return nil }
        let width = viewport.width
        for y in region.y..<region.maxY {
            let start = (y - viewport.y) * width + (region.x - viewport.x)
            for index in start..<(start + region.width) {
                penBits[index] = 0
                penColours[index] = 0
                markerColours[index] = nil
                if !glyphCells.isEmpty { glyphCells[index] = nil }
            }
        }
        return region
    }

    /// This layer for another viewport in the same mode: the cells both show are copied, the
    /// rest are blank until the caller redraws them (`redraw(_:from:)`).
    public func moved(to newViewport: Viewport) -> RasterLayer {
        var moved = RasterLayer([], viewport: newViewport, mode: mode)
        guard let shared = viewport.intersection(newViewport) else { return moved }
        for y in shared.y..<shared.maxY {
            let from = (y - viewport.y) * viewport.width + (shared.x - viewport.x)
            let to = (y - newViewport.y) * newViewport.width + (shared.x - newViewport.x)
            moved.penBits[to..<(to + shared.width)] = penBits[from..<(from + shared.width)]
            moved.penColours[to..<(to + shared.width)] = penColours[from..<(from + shared.width)]
            moved.markerColours[to..<(to + shared.width)] = markerColours[from..<(from + shared.width)]
        }
        for cell in glyphCells.values
        where cell.x >= newViewport.x && cell.x < newViewport.maxX && cell.y >= newViewport.y
            && cell.y < newViewport.maxY
        {
            moved.glyphCells[(cell.y - newViewport.y) * newViewport.width + (cell.x - newViewport.x)] = cell
        }
        return moved
    }

    /// Draws `groups` in key order over the cells of `region`, a part of the viewport.
    mutating func draw(_ groups: [StrokeGroup], in region: CellRect) {
        let width = viewport.width
        guard width > 0, viewport.height > 0, region.width > 0, region.height > 0, !groups.isEmpty else {
            return
        }
        let lattice = mode.lattice
        let (columns, rows) = lattice.samples(in: region)
        let sampler = InkSampler(lattice: lattice)
        for stroke in Raster.strokesInZOrder(groups) {
            if !stroke.kind.isPath {
                for cell in Raster.glyphCells(of: stroke, mode: mode)
                where cell.x >= region.x && cell.x < region.maxX && cell.y >= region.y && cell.y < region.maxY
                {
                    let index = (cell.y - viewport.y) * width + (cell.x - viewport.x)
                    penBits[index] = 0
                    glyphCells[index] = cell
                }
                continue
            }
            let isMarker = stroke.ink.tool == .marker
            sampler.forEachVisibleSample(of: stroke, columns: columns, rows: rows) { column, row in
                let place = lattice.cell(ofColumn: column, row: row)
                let index = (place.y - viewport.y) * width + (place.x - viewport.x)
                if isMarker {
                    markerColours[index] = stroke.ink.colour
                } else {
                    penBits[index] |= 1 << UInt8(place.subRow * lattice.columnsPerCell + place.subColumn)
                    penColours[index] = stroke.ink.colour
                    if !glyphCells.isEmpty { glyphCells[index] = nil }
                }
                return true
            }
        }
    }

    /// How many cells of `bounds` the regions (inside it) cover, each counted once.
    static func cellCount(of regions: [CellRect], within bounds: CellRect) -> Int {
        if regions.count == 1 { return bounds.width * bounds.height }
        var covered = [Bool](repeating: false, count: bounds.width * bounds.height)
        for region in regions {
            for y in region.y..<region.maxY {
                let start = (y - bounds.y) * bounds.width + region.x - bounds.x
                for index in start..<(start + region.width) { covered[index] = true }
            }
        }
        return covered.reduce(0) { $0 + ($1 ? 1 : 0) }
    }

    /// Regions put together where the rectangle around them is at most twice their cells, so
    /// that one query and one walk serve them, but two changes far apart do not ask for every
    /// group between them.
    static func clusters(of regions: [CellRect]) -> [(regions: [CellRect], bounds: CellRect)] {
        var clusters: [(regions: [CellRect], bounds: CellRect, cells: Int)] = []
        for region in regions {
            let cells = region.width * region.height
            if let at = clusters.firstIndex(where: { cluster in
                let joined = cluster.bounds.union(region)
                return joined.width * joined.height <= 2 * (cluster.cells + cells)
            }) {
                clusters[at].regions.append(region)
                clusters[at].bounds = clusters[at].bounds.union(region)
                clusters[at].cells += cells
            } else {
                clusters.append(([region], region, cells))
            }
        }
        return clusters.map { ($0.regions, $0.bounds) }
    }

    /// The layer's cells as the walk writes them.
    mutating func withCells<Result>(_ body: (CellBuffers) -> Result) -> Result {
        penBits.withUnsafeMutableBufferPointer { bits in
            penColours.withUnsafeMutableBufferPointer { colours in
                markerColours.withUnsafeMutableBufferPointer { markers in
                    body(CellBuffers(bits: bits, colours: colours, markers: markers))
                }
            }
        }
    }

    /// The cells, blank where there is no ink.
    public var grid: CellGrid {
        let width = max(viewport.width, 0)
        let height = max(viewport.height, 0)
        var cells = [Cell](repeating: .blank, count: width * height)
        for index in cells.indices {
            let bits = penBits[index]
            let pen =
                glyphCells.isEmpty
                ? (bits == 0 ? nil : Cell(mode.glyph(bits: bits), foreground: penColours[index]))
                : glyphCell(at: index)
                    ?? (bits == 0 ? nil : Cell(mode.glyph(bits: bits), foreground: penColours[index]))
            if let cell = Raster.layered(pen: pen, marker: markerColours[index], mode: mode) {
                cells[index] = cell
            }
        }
        // The right half of a wide glyph takes the colours of its left half, as the grid's pairs do.
        for (index, cell) in glyphCells where cell.columns == 2 && cell.half == 1 {
            if cells[index].isContinuation, index > 0 {
                cells[index] = Cell(
                    Cell.continuationGlyph, foreground: cells[index - 1].foreground,
                    background: cells[index - 1].background, attributes: cells[index - 1].attributes)
            }
        }
        return CellGrid(width: width, height: height, narrowCells: cells)
    }

    /// The cell a glyph shows in, in its colour; a half of a wide glyph whose other half is
    /// not beside it (cut by the viewport or covered by ink) shows as a space in that colour.
    private func glyphCell(at index: Int) -> Cell? {
        guard let cell = glyphCells[index] else { return nil }
        guard cell.columns == 2 else { return Cell(cell.glyph, foreground: cell.colour) }
        let width = max(viewport.width, 0)
        let column = index % max(width, 1)
        let partnerIndex = cell.half == 0 ? index + 1 : index - 1
        let partnerColumn = cell.half == 0 ? column + 1 : column - 1
        guard partnerColumn >= 0, partnerColumn < width, let partner = glyphCells[partnerIndex],
            partner.glyph == cell.glyph, partner.half == 1 - cell.half,
            partner.x == cell.x + (partner.half - cell.half)
        else { return Cell(" ", foreground: cell.colour) }
        return Cell(cell.half == 0 ? cell.glyph : Cell.continuationGlyph, foreground: cell.colour)
    }
}

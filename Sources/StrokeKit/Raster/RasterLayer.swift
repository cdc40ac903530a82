import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    private mutating func draw(_ groups: [StrokeGroup], in region: CellRect) {
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

    /// Draws `groups` into `region`, whose cells are blank, with the result `draw` gives, but
    /// topmost stroke first: a cell's pen colour is the first pen's to ink it, its marker colour
    /// the first marker's, and its samples are or-ed as before, so the order does not change
    /// what a cell ends as. What it saves: a sample a pen above inked already cannot change for
    /// a pen below, nor a cell with a marker colour for a marker below, so such samples are not
    /// tested; a group whose bounds hold only full cells is not looked at, and once every cell
    /// of the region is full the groups below are not either. In a large drawing most groups
    /// under the viewport lie under others (at 100,000 strokes, under dozens), so a frame costs
    /// about what the visible ink costs, not what the drawing does.
    ///
    /// Text and unknown kinds are drawn in key order (`draw`): a glyph clears the pen samples
    /// below it and a later pen clears the glyph, so a cell's end state depends on the order and
    /// the or-ing above does not hold. When any such stroke is among `groups`, all of them are.
    private mutating func drawTopFirst(_ groups: [StrokeGroup], in region: CellRect) {
        guard !groups.isEmpty else { return }
        if groups.contains(where: { $0.pieces.contains { !$0.kind.isPath } }) {
            draw(groups, in: region)
            return
        }
        // Topmost first, without a copy of every group: groups in key order are walked
        // backwards, others sorted first.
        let ordered =
            zip(groups, groups.dropFirst()).allSatisfy({ $0.key < $1.key })
            ? groups : Raster.inKeyOrder(groups)
        walkTopFirst(count: ordered.count, in: [region], within: region) { index in
            let pieces = ordered[index].pieces
            var flags: UInt8 = 0
            for piece in pieces { flags |= piece.ink.tool == .marker ? 2 : 1 }
            return (SpatialIndex.bounds(ofGroup: ordered[index])?.ink, flags)
        } pieces: {
            ordered[$0].pieces
        }
    }

    /// `drawTopFirst(_:in:)` of the groups the index holds under `regions` (blank, inside
    /// `bounds`): their bounds and kinds come from the index, so a group under full cells is
    /// passed over without reading it.
    private mutating func drawTopFirst(
        from index: SpatialIndex, in regions: [CellRect], within bounds: CellRect
    ) {
        let slots = index.slots(in: bounds)
        guard !slots.isEmpty else { return }
        if slots.contains(where: { index.places[Int($0)].flags & SpatialIndex.Place.glyphs != 0 }) {
            let groups = slots.compactMap { index.group(inSlot: $0) }
            for region in regions { draw(groups, in: region) }
            return
        }
        let (viewport, mode) = (self.viewport, self.mode)
        index.withSlots { stored in
            withCells { cells in
                Self.walkTopFirst(
                    slots, of: stored, in: regions, within: bounds, viewport: viewport, mode: mode,
                    cells: cells)
            }
        }
    }

    /// `drawTopFirst(from:in:within:)` of the whole viewport, cut into `bands` (its rows, top to
    /// bottom), each band walked on a thread of its own: each queries the index for its own
    /// rectangle and writes only its own cells, with masks of its own. A band under text or an
    /// unknown kind is drawn in key order afterwards, on this thread (that draw keeps glyphs in
    /// a dictionary, which one thread at a time may change).
    private mutating func drawTopFirst(from index: SpatialIndex, inBands bands: [CellRect]) {
        let (viewport, mode) = (self.viewport, self.mode)
        var inKeyOrder = [Bool](repeating: false, count: bands.count)
        withCells { cells in
            inKeyOrder.withUnsafeMutableBufferPointer { inKeyOrder in
                let shared = BandShared(cells: cells, inKeyOrder: inKeyOrder)
                DispatchQueue.concurrentPerform(iterations: bands.count) { band in
                    let region = bands[band]
                    let slots = index.slots(in: region)
                    index.withSlots { stored in
                        if slots.contains(where: {
                            stored.places[Int($0)].flags & SpatialIndex.Place.glyphs != 0
                        }) {
                            shared.inKeyOrder[band] = true
                            return
                        }
                        Self.walkTopFirst(
                            slots, of: stored, in: [region], within: region, viewport: viewport, mode: mode,
                            cells: shared.cells)
                    }
                }
            }
        }
        for (band, region) in bands.enumerated() where inKeyOrder[band] {
            draw(index.groups(in: region), in: region)
        }
    }

    /// How many bands a layer of `viewport` over `drawing` is drawn in: one a processor (at most
    /// `maximumBands`, each at least `minimumBandRows` rows), or one when the drawing holds fewer
    /// than `minimumGroupsForBands` groups, where handing a band to another thread costs about
    /// what drawing it does.
    static func bandCount(for drawing: Drawing, viewport: Viewport) -> Int {
        guard drawing.count >= minimumGroupsForBands else { return 1 }
        return max(1, min(processorCount, maximumBands, viewport.height / minimumBandRows))
    }

    static let minimumGroupsForBands = 1_000
    static let maximumBands = 4
    static let minimumBandRows = 8

    /// The processors online, read once.
    private static let processorCount = max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)

    /// The viewport's rows cut into `count` bands of (nearly) equal height, top first; fewer
    /// when it has fewer rows.
    static func bands(of viewport: Viewport, count: Int) -> [CellRect] {
        let count = min(max(count, 1), max(viewport.height, 1))
        return (0..<count).map { band in
            let top = viewport.y + viewport.height * band / count
            let bottom = viewport.y + viewport.height * (band + 1) / count
            return CellRect(x: viewport.x, y: top, width: viewport.width, height: bottom - top)
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

    /// The walk of `drawTopFirst`: `count` groups in key order, each with its bounds and which
    /// tools its pieces use (1 pen, 2 marker), read from the last to the first; `group` is asked
    /// only for groups whose bounds reach a cell that can still change.
    @inline(__always)
    private mutating func walkTopFirst(
        count: Int, in regions: [CellRect], within region: CellRect,
        place: (Int) -> (bounds: CellRect?, flags: UInt8), pieces: (Int) -> [Stroke]?
    ) {
        let (viewport, mode) = (self.viewport, self.mode)
        withCells { cells in
            Self.walkTopFirst(
                count: count, in: regions, within: region, viewport: viewport, mode: mode, cells: cells,
                place: place, pieces: pieces)
        }
    }

    /// The layer's cells as the walk writes them.
    private mutating func withCells<Result>(_ body: (CellBuffers) -> Result) -> Result {
        penBits.withUnsafeMutableBufferPointer { bits in
            penColours.withUnsafeMutableBufferPointer { colours in
                markerColours.withUnsafeMutableBufferPointer { markers in
                    body(CellBuffers(bits: bits, colours: colours, markers: markers))
                }
            }
        }
    }

    /// `walkTopFirst` of the index's `slots` (in key order), their bounds and kinds read from
    /// their places. A few groups before the walk reaches a group, it asks the processor for the
    /// group's pieces, and a little later for their points (`StorageHint`): otherwise much of
    /// the walk's time is spent waiting on those first reads (DECISIONS.md, stop 23).
    @inline(__always)
    private static func walkTopFirst(
        _ slots: [Int32], of stored: SpatialIndex.Slots, in regions: [CellRect], within region: CellRect,
        viewport: Viewport, mode: GlyphMode, cells: CellBuffers
    ) {
        // Where the layout the hints read is known, a group's pieces are also read in place.
        let layoutKnown = StorageHint.isAvailable
        slots.withUnsafeBufferPointer { slots in
            walkTopFirst(
                count: slots.count, in: regions, within: region, viewport: viewport, mode: mode, cells: cells
            ) { at in
                if layoutKnown {
                    if at >= piecesAhead { stored.prefetchPieces(inSlot: slots[at - piecesAhead]) }
                    if at >= pointsAhead { stored.prefetchPath(inSlot: slots[at - pointsAhead]) }
                }
                let place = stored.places[Int(slots[at])]
                return (place.inkBounds, place.flags)
            } pieces: {
                // Asked only for a group with bounds, so the slot holds one.
                layoutKnown ? stored.piecesInPlace(inSlot: slots[$0]) : stored.pieces(inSlot: slots[$0])
            }
        }
    }

    /// How many groups ahead of the walk their pieces, and their points, are asked for: measured
    /// at 100,000 strokes (DECISIONS.md); 2 to 8 groups ahead all did about as well.
    private static let piecesAhead = 4
    private static let pointsAhead = 2

    /// `walkTopFirst` on the cells of a layer of `viewport`: it writes only the cells of `region`.
    @inline(__always)
    private static func walkTopFirst(
        count: Int, in regions: [CellRect], within region: CellRect, viewport: Viewport, mode: GlyphMode,
        cells buffers: CellBuffers, place: (Int) -> (bounds: CellRect?, flags: UInt8),
        pieces: (Int) -> [Stroke]?
    ) {
        guard viewport.width > 0, viewport.height > 0, region.width > 0, region.height > 0, count > 0 else {
            return
        }
        let lattice = mode.lattice
        let (columns, rows) = lattice.samples(in: region)
        let sampler = InkSampler(lattice: lattice)
        // The cells are written through buffers: the test of what is settled reads them while
        // the stroke is drawn into them. What is still open is kept as masks of samples and of
        // cells (`SettlingCells`), so the tests of a group's bounds and of a segment's
        // candidates are a few word tests, and hidden candidates are never tried.
        let layout = SettlingCells.Layout(viewport: viewport, lattice: lattice)
        var (masks, open) = SettlingCells.openMasks(of: regions, in: layout, lattice: lattice)
        masks.withUnsafeMutableBufferPointer { masks in
            var cells = SettlingCells(
                bits: buffers.bits, colours: buffers.colours, markers: buffers.markers, masks: masks,
                layout: layout, lattice: lattice, open: open)
            for at in stride(from: count - 1, through: 0, by: -1) {
                if cells.openPens == 0 && cells.openMarkers == 0 { break }
                let (bounds, flags) = place(at)
                guard let reach = bounds?.intersection(region) else { continue }
                let pens =
                    flags & 1 != 0 && cells.openPens > 0
                    && cells.hasOpenCell(in: reach, forMarker: false)
                let marks =
                    flags & 2 != 0 && cells.openMarkers > 0
                    && cells.hasOpenCell(in: reach, forMarker: true)
                // Only the pieces are read (not a copy of the group, whose key and sweeps would
                // be touched for nothing), each in place.
                guard pens || marks, let pieces = pieces(at) else { continue }
                Self.draw(
                    pieces, pens: pens, marks: marks, in: region, sampler: sampler,
                    samples: (columns, rows), into: &cells)
            }
        }
    }

    /// The pieces of one group drawn into `cells`, topmost first, for the tools still worth it;
    /// each piece read in place through the buffer, so none is copied (a copy touches its key's
    /// and its mask's storage, which the sampler never reads).
    @inline(__always)
    private static func draw(
        _ pieces: [Stroke], pens: Bool, marks: Bool, in region: CellRect, sampler: InkSampler,
        samples: (columns: Range<Int>, rows: Range<Int>), into cells: inout SettlingCells
    ) {
        pieces.withUnsafeBufferPointer { pieces in
            for piece in pieces.indices.reversed() {
                let isMarker = pieces[piece].ink.tool == .marker
                guard isMarker ? marks : pens else { continue }
                if pieces.count > 1 {
                    guard let part = SpatialIndex.inkBounds(of: pieces[piece]).intersection(region),
                        cells.hasOpenCell(in: part, forMarker: isMarker)
                    else { continue }
                }
                cells.isMarker = isMarker
                cells.colour = pieces[piece].ink.colour
                // Every piece here is a path (a group with any other kind is drawn in key order).
                sampler.forEachVisibleSample(
                    ofPath: pieces[piece].path, transform: pieces[piece].transform,
                    width: pieces[piece].ink.width,
                    mask: pieces[piece].mask, columns: samples.columns, rows: samples.rows, &cells)
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

/// The storage of a layer's cells, as the walk writes them.
private struct CellBuffers {
    let bits: UnsafeMutableBufferPointer<UInt8>
    let colours: UnsafeMutableBufferPointer<UInt8>
    let markers: UnsafeMutableBufferPointer<UInt8?>
}

/// What the bands of one layer share while they are drawn at once: the layer's cells, and one
/// flag a band. Each band writes only the cells of its own rows and its own flag, and the arrays
/// behind them are neither grown, copied nor freed until every band is done, so no place is
/// written by two threads, nor read by one while another writes it.
private struct BandShared: @unchecked Sendable {
    let cells: CellBuffers
    let inKeyOrder: UnsafeMutableBufferPointer<Bool>
}

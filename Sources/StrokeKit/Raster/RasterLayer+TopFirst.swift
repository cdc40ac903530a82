import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A layer drawn topmost stroke first (`RasterLayer`'s cold frames and redrawn regions): the walk
/// over the groups under a region, what it skips, and a whole viewport cut into bands of rows
/// drawn on every core.
extension RasterLayer {
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
    mutating func drawTopFirst(_ groups: [StrokeGroup], in region: CellRect) {
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
        let (viewport, mode) = (self.viewport, self.mode)
        withCells { cells in
            Self.walkTopFirst(
                count: ordered.count, in: [region], within: region, viewport: viewport, mode: mode,
                cells: cells
            ) { index in
                let pieces = ordered[index].pieces
                var flags: UInt8 = 0
                for piece in pieces { flags |= piece.ink.tool == .marker ? 2 : 1 }
                return (SpatialIndex.bounds(ofGroup: ordered[index])?.ink, flags)
            } pieces: {
                ordered[$0].pieces
            }
        }
    }

    /// `drawTopFirst(_:in:)` of the groups the index holds under `regions` (blank, inside
    /// `bounds`): their bounds and kinds come from the index, so a group under full cells is
    /// passed over without reading it.
    mutating func drawTopFirst(
        from index: SpatialIndex, in regions: [CellRect], within bounds: CellRect
    ) {
        let (viewport, mode) = (self.viewport, self.mode)
        let walked = withCells { cells in
            Self.walkTopFirst(
                index, in: regions, within: bounds, viewport: viewport, mode: mode, cells: cells)
        }
        if !walked {
            let groups = index.groups(in: bounds)
            for region in regions { draw(groups, in: region) }
        }
    }

    /// `drawTopFirst(from:in:within:)` of the whole viewport, cut into `bands` (its rows, top to
    /// bottom), each band walked on a thread of its own: each queries the index for its own
    /// rectangle and writes only its own cells, with masks of its own. A band under text or an
    /// unknown kind is drawn in key order afterwards, on this thread (that draw keeps glyphs in
    /// a dictionary, which one thread at a time may change).
    mutating func drawTopFirst(from index: SpatialIndex, inBands bands: [CellRect]) {
        let (viewport, mode) = (self.viewport, self.mode)
        var inKeyOrder = [Bool](repeating: false, count: bands.count)
        withCells { cells in
            inKeyOrder.withUnsafeMutableBufferPointer { inKeyOrder in
                let shared = BandShared(cells: cells, inKeyOrder: inKeyOrder)
                DispatchQueue.concurrentPerform(iterations: bands.count) { band in
                    shared.inKeyOrder[band] = !Self.walkTopFirst(
                        index, in: [bands[band]], within: bands[band], viewport: viewport, mode: mode,
                        cells: shared.cells)
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

    /// `walkTopFirst` of the groups `index` holds under `regions` (inside `region`), their
    /// bounds and kinds read from their places; false, with nothing drawn, when one of them is
    /// text or a kind this build does not know (the caller draws those regions in key order).
    /// A few groups before the walk reaches a group, it asks the processor for the group's
    /// pieces, and a little later for their points (`StorageHint`): otherwise much of the walk's
    /// time is spent waiting on those first reads (DECISIONS.md, stop 23).
    private static func walkTopFirst(
        _ index: SpatialIndex, in regions: [CellRect], within region: CellRect, viewport: Viewport,
        mode: GlyphMode, cells: CellBuffers
    ) -> Bool {
        let slots = index.slots(in: region)
        return index.withSlots { stored in
            if slots.contains(where: { stored.places[Int($0)].flags & SpatialIndex.Place.glyphs != 0 }) {
                return false
            }
            walkTopFirst(
                slots, of: stored, in: regions, within: region, viewport: viewport, mode: mode, cells: cells)
            return true
        }
    }

    /// The walk of `walkTopFirst(_:in:within:viewport:mode:cells:)` over its slots.
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
                if at >= slotsAhead { stored.prefetchSlot(slots[at - slotsAhead]) }
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

    /// How many groups ahead of the walk their places and slots, their pieces, and their points
    /// are asked for: measured at 100,000 strokes (DECISIONS.md); 2 to 8 groups ahead all did
    /// about as well for the pieces and points, and the slots asked for 12 to 32 ahead as well
    /// (stop 29; without them the pieces' hint itself waited on the read of the slot).
    private static let slotsAhead = 12
    private static let piecesAhead = 4
    private static let pointsAhead = 2

    /// The walk of `drawTopFirst`: `count` groups in key order, each with its bounds and which
    /// tools its pieces use (1 pen, 2 marker), read from the last to the first, on the cells of
    /// a layer of `viewport` (it writes only those of `region`); `pieces` is asked only for
    /// groups whose bounds reach a cell that can still change.
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
}

/// The storage of a layer's cells, as the walk writes them.
struct CellBuffers {
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

/// The cells of a layer as the sampler sees them while the raster's topmost-first walk draws one
/// stroke into them (`RasterLayer.walkTopFirst`): a sample a stroke above inked already is
/// settled (a pen there can only set a bit that is set, a marker only a colour that is chosen),
/// and a visit inks the sample.
///
/// What is still open is kept as bit masks, one bit a sample or a cell, one run of 64-bit words
/// per row of the viewport: per sample row, the samples no pen has inked and the samples of cells
/// no marker has coloured; per cell row, the cells not yet full (every sample inked) and the
/// cells without a marker colour. Only the regions being drawn start open. So the walk asks of a
/// group's bounds, a segment's candidates or a row's candidates "is any of these open" with a few
/// word tests, and the sampler tries only the open candidates of a row (the set bits), never one
/// that a stroke above settled. In braille a cell settles only when all eight dots are inked, but
/// a dot settles on its own: the sample masks are what let a stroke under many others be passed
/// over there. It also counts the cells still open to a pen and to a marker, so the walk stops
/// once none is.
struct SettlingCells: SampleVisitor {
    private let bits: UnsafeMutableBufferPointer<UInt8>
    private let colours: UnsafeMutableBufferPointer<UInt8>
    private let markers: UnsafeMutableBufferPointer<UInt8?>
    /// The four masks, one after the other (see `Layout`).
    private let masks: UnsafeMutableBufferPointer<UInt64>
    private let layout: Layout
    private let lattice: SampleLattice
    private let full: UInt8
    private(set) var openPens: Int
    private(set) var openMarkers: Int
    /// The stroke being drawn.
    var isMarker = false
    var colour: UInt8 = 0

    /// Where each mask starts in one array of words, and how a sample or a cell finds its bit.
    struct Layout {
        /// The viewport's top-left cell and its first sample column and row.
        let origin: (x: Int, y: Int)
        let firstSample: (column: Int, row: Int)
        let width: Int
        let sampleWords: Int
        let cellWords: Int
        let penSamples: Int
        let markerSamples: Int
        let penCells: Int
        let markerCells: Int
        let count: Int

        init(viewport: Viewport, lattice: SampleLattice) {
            origin = (viewport.x, viewport.y)
            firstSample = (viewport.x * lattice.columnsPerCell, viewport.y * lattice.rowsPerCell)
            width = viewport.width
            sampleWords = (viewport.width * lattice.columnsPerCell + 63) >> 6
            cellWords = (viewport.width + 63) >> 6
            let sampleRows = viewport.height * lattice.rowsPerCell
            penSamples = 0
            markerSamples = sampleRows * sampleWords
            penCells = 2 * markerSamples
            markerCells = penCells + viewport.height * cellWords
            // One word more, always 0, so a run of samples read across a word's end never reads
            // past the array (`openSamples`).
            count = markerCells + viewport.height * cellWords + 1
        }
    }

    /// The masks of a layer whose `regions` (inside the viewport, overlapping or not) are blank
    /// and open to both tools, every other cell settled; and how many cells are open.
    static func openMasks(of regions: [CellRect], in layout: Layout, lattice: SampleLattice) -> (
        words: [UInt64], open: Int
    ) {
        var words = [UInt64](repeating: 0, count: layout.count)
        for region in regions where region.width > 0 && region.height > 0 {
            let left = region.x - layout.origin.x
            let right = region.maxX - layout.origin.x - 1
            for y in (region.y - layout.origin.y)..<(region.maxY - layout.origin.y) {
                for mask in [layout.penCells, layout.markerCells] {
                    setBits(&words, start: mask + y * layout.cellWords, from: left, through: right)
                }
                for sampleRow in (y * lattice.rowsPerCell)..<((y + 1) * lattice.rowsPerCell) {
                    for mask in [layout.penSamples, layout.markerSamples] {
                        setBits(
                            &words, start: mask + sampleRow * layout.sampleWords,
                            from: left * lattice.columnsPerCell,
                            through: (right + 1) * lattice.columnsPerCell - 1)
                    }
                }
            }
        }
        let open = words[layout.penCells..<layout.markerCells].reduce(0) { $0 + $1.nonzeroBitCount }
        return (words, open)
    }

    private static func setBits(_ words: inout [UInt64], start: Int, from first: Int, through last: Int) {
        for bit in first...last { words[start + bit >> 6] |= 1 << UInt64(bit & 63) }
    }

    init(
        bits: UnsafeMutableBufferPointer<UInt8>, colours: UnsafeMutableBufferPointer<UInt8>,
        markers: UnsafeMutableBufferPointer<UInt8?>, masks: UnsafeMutableBufferPointer<UInt64>,
        layout: Layout, lattice: SampleLattice, open: Int
    ) {
        self.bits = bits
        self.colours = colours
        self.markers = markers
        self.masks = masks
        self.layout = layout
        self.lattice = lattice
        full = UInt8(truncatingIfNeeded: (1 << (lattice.columnsPerCell * lattice.rowsPerCell)) - 1)
        openPens = open
        openMarkers = open
    }

    /// Whether any bit `first` through `last` (0 ≤ first ≤ last) is set in any of `rows` rows of
    /// a mask, the first at word `start`, each `stride` words after the one before: the words
    /// and the edge masks are worked out once for all the rows.
    @inline(__always)
    private func anyBit(start: Int, rows: Int, stride: Int, from first: Int, through last: Int) -> Bool {
        let (firstWord, lastWord) = (start + first >> 6, start + last >> 6)
        let low = ~UInt64(0) << UInt64(first & 63)
        let high = ~UInt64(0) >> UInt64(63 - last & 63)
        let end = firstWord + rows * stride
        if firstWord == lastWord {
            let edges = low & high
            var word = firstWord
            while word < end {
                if masks[word] & edges != 0 { return true }
                word += stride
            }
            return false
        }
        var row = firstWord
        while row < end {
            if masks[row] & low != 0 || masks[row + lastWord - firstWord] & high != 0 { return true }
            var word = row + 1
            while word < row + lastWord - firstWord {
                if masks[word] != 0 { return true }
                word += 1
            }
            row += stride
        }
        return false
    }

    /// Whether a cell of `rect` (inside the region being drawn) can still change for the tool.
    @inline(__always)
    func hasOpenCell(in rect: CellRect, forMarker isMarker: Bool) -> Bool {
        let mask = isMarker ? layout.markerCells : layout.penCells
        return anyBit(
            start: mask + (rect.y - layout.origin.y) * layout.cellWords, rows: rect.height,
            stride: layout.cellWords,
            from: rect.x - layout.origin.x, through: rect.maxX - layout.origin.x - 1)
    }

    @inline(__always)
    func hasOpenSample(left: Int, top: Int, right: Int, bottom: Int) -> Bool {
        let mask = isMarker ? layout.markerSamples : layout.penSamples
        return anyBit(
            start: mask + (top - layout.firstSample.row) * layout.sampleWords, rows: bottom - top + 1,
            stride: layout.sampleWords, from: left - layout.firstSample.column,
            through: right - layout.firstSample.column)
    }

    @inline(__always)
    func openSamples(row: Int, from first: Int, through last: Int) -> UInt64 {
        let start =
            (isMarker ? layout.markerSamples : layout.penSamples)
            + (row - layout.firstSample.row) * layout.sampleWords
        let column = first - layout.firstSample.column
        let (word, shift) = (start + column >> 6, UInt64(column & 63))
        // The next word's low bits above this one's: shifted twice, so a shift of 0 takes none.
        // Past a row's last word they are the next row's (or the spare word's), and fall beyond
        // `last`, which the row holds.
        let open = masks[word] &>> shift | (masks[word + 1] &<< 1) &<< (63 &- shift)
        return open & SampleRun.all(from: first, through: last)
    }

    @inline(__always)
    mutating func visit(column: Int, row: Int) -> Bool {
        let place = lattice.cell(ofColumn: column, row: row)
        let (x, y) = (place.x - layout.origin.x, place.y - layout.origin.y)
        let cell = y * layout.width + x
        let cellBit = ~(UInt64(1) << UInt64(x & 63))
        if isMarker {
            guard markers[cell] == nil else { return true }
            markers[cell] = colour
            openMarkers -= 1
            masks[layout.markerCells + y * layout.cellWords + x >> 6] &= cellBit
            // Every sample of the cell is settled for a marker now.
            let firstColumn = x * lattice.columnsPerCell
            let sampleBits = ~((UInt64(1) << UInt64(lattice.columnsPerCell) - 1) << UInt64(firstColumn & 63))
            let firstRow = y * lattice.rowsPerCell
            for sampleRow in firstRow..<(firstRow + lattice.rowsPerCell) {
                masks[layout.markerSamples + sampleRow * layout.sampleWords + firstColumn >> 6] &= sampleBits
            }
        } else {
            let old = bits[cell]
            let new = old | 1 << UInt8(place.subRow * lattice.columnsPerCell + place.subColumn)
            guard new != old else { return true }
            if old == 0 { colours[cell] = colour }
            bits[cell] = new
            let sampleColumn = column - layout.firstSample.column
            masks[
                layout.penSamples + (row - layout.firstSample.row) * layout.sampleWords + sampleColumn >> 6] &=
                ~(UInt64(1) << UInt64(sampleColumn & 63))
            if new == full {
                openPens -= 1
                masks[layout.penCells + y * layout.cellWords + x >> 6] &= cellBit
            }
        }
        return true
    }
}

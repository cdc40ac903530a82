/// Which samples of a lattice a stroke inks, after its transform and mask: the one definition of
/// "visible" that rendering, extents and the eraser's "is anything left" all use. Only a path
/// inks samples: text and unknown kinds are cells of their own (`TextLayout`, `Raster`).
///
/// A sample is inked when its centre lies within half the stroke's width of the path, or when
/// the path passes through the sample's rectangle. The second rule keeps thin lines unbroken at
/// any slope and any distance between two path points; the first gives wide strokes their width.
///
/// Both rules are half-open, so ink exactly on a sample boundary belongs to one sample, not two:
/// a centre exactly half a width away is outside, and a sample's rectangle stops just short of
/// its right and bottom edges (which belong to the next sample).
struct InkSampler {
    let lattice: SampleLattice

    /// Far below the 1/16 grid, so only points exactly on a right or bottom edge are left out.
    private static let edge = 1e-9
    /// Room for rounding where candidate rows and columns are worked out.
    private static let slack = 1e-9

    /// A stroke's geometry on the canvas (path segments, half width, mask), derived once so that
    /// sampling it many times (as `visibleBounds` does, a row or column at a time) does not
    /// derive it again each time.
    private struct Shape {
        /// The path in the stroke's own coordinates; `offset` places it on the canvas. Points
        /// are placed as they are read, so preparing a stroke allocates nothing for its path.
        private let path: [StrokePoint]
        private let offset: Vector2
        let halfWidth: Double
        private let mask: [MaskSegment]

        private struct MaskSegment {
            let a: Vector2
            let b: Vector2
            let radius: Double
            let minX, minY, maxX, maxY: Double
        }

        init(_ stroke: Stroke) {
            path = stroke.path
            offset = Vector2(stroke.transform.dx, stroke.transform.dy)
            halfWidth = stroke.ink.width / 2
            let offset = self.offset
            mask =
                stroke.mask.isEmpty
                ? []
                : stroke.mask.sweeps.flatMap { sweep in
                    sweep.segments.map { a, b in
                        let (ca, cb) = (a + offset, b + offset)
                        return MaskSegment(
                            a: ca, b: cb, radius: sweep.radius, minX: min(ca.x, cb.x) - sweep.radius,
                            minY: min(ca.y, cb.y) - sweep.radius, maxX: max(ca.x, cb.x) + sweep.radius,
                            maxY: max(ca.y, cb.y) + sweep.radius)
                    }
                }
        }

        /// How many segments the path has: a single point is one degenerate segment (a dot).
        var segmentCount: Int { max(path.count - 1, 1) }

        /// Segment `index` on the canvas (the `PlanarGeometry.segments(of:)` of the spine).
        @inline(__always)
        func segment(_ index: Int) -> (Vector2, Vector2) {
            path.count == 1 ? (point(0), point(0)) : (point(index), point(index + 1))
        }

        @inline(__always)
        private func point(_ index: Int) -> Vector2 {
            let point = path[index].point
            return Vector2(point.x + offset.x, point.y + offset.y)
        }

        /// The box of the path on the canvas.
        var box: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
            let first = point(0)
            var box = (minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
            for index in path.indices.dropFirst() {
                let p = point(index)
                box = (min(box.minX, p.x), min(box.minY, p.y), max(box.maxX, p.x), max(box.maxY, p.y))
            }
            return box
        }

        /// Whether the mask hides a canvas point.
        func hidden(_ p: Vector2) -> Bool {
            for segment in mask
            where p.x >= segment.minX && p.x <= segment.maxX && p.y >= segment.minY && p.y <= segment.maxY
                && PlanarGeometry.distanceSquared(from: p, toSegment: segment.a, segment.b)
                    <= segment.radius * segment.radius
            {
                return true
            }
            return false
        }
    }

    /// Calls `body` with (column, row) of each visible sample, possibly more than once, within
    /// the given sample ranges (unbounded when nil). `body` returns false to stop; the result is
    /// false when it did.
    ///
    /// `settled` says of a candidate sample that nothing `body` would do there can change what
    /// the caller draws (a sample inked already by a stroke above): it is not tested, and `body`
    /// may not be called for it. `settledCells` says the same of every sample in a
    /// rectangle of cells (first x, first y, last x, last y): a segment whose candidates all lie
    /// in settled cells is passed over whole, so a stroke under full cells costs a look at the
    /// cells around each segment, not a test of each candidate.
    @discardableResult
    @inline(__always)
    func forEachVisibleSample(
        of stroke: Stroke, columns: Range<Int>? = nil, rows: Range<Int>? = nil,
        skipping settled: (Int, Int) -> Bool = { _, _ in false },
        skippingCells settledCells: (Int, Int, Int, Int) -> Bool = { _, _, _, _ in false },
        _ body: (Int, Int) -> Bool
    ) -> Bool {
        guard stroke.kind.isPath else { return true }
        return forEachVisibleSample(
            of: Shape(stroke), columns: columns, rows: rows, skipping: settled, skippingCells: settledCells,
            body)
    }

    // Inlined so that the caller's closures are too: a frame calls them for every candidate.
    @inline(__always)
    private func forEachVisibleSample(
        of shape: Shape, columns: Range<Int>?, rows: Range<Int>?,
        skipping settled: (Int, Int) -> Bool = { _, _ in false },
        skippingCells settledCells: (Int, Int, Int, Int) -> Bool = { _, _, _, _ in false },
        _ body: (Int, Int) -> Bool
    ) -> Bool {
        let halfWidth = shape.halfWidth
        let sw = lattice.sampleWidth
        let sh = lattice.sampleHeight
        // The square of half a sample's diagonal, with room for rounding: no point of a sample's
        // rectangle is further than that from its centre.
        let reachSquared = (sw * sw + sh * sh) / 4 * (1 + 1e-6) + 1e-12
        for segment in 0..<shape.segmentCount {
            let (a, b) = shape.segment(segment)
            // The rows whose band (below) can meet the segment, with room for rounding.
            var firstRow = Int(((min(a.y, b.y) - halfWidth - Self.slack) / sh).rounded(.down)) - 1
            var lastRow = Int(((max(a.y, b.y) + halfWidth + Self.slack) / sh).rounded(.down))
            if let rows {
                firstRow = max(firstRow, rows.lowerBound)
                lastRow = min(lastRow, rows.upperBound - 1)
            }
            guard firstRow <= lastRow else { continue }
            do {
                // Every candidate column below lies within these (two samples of room each
                // side for the rules' own margins and rounding).
                var first = Int(((min(a.x, b.x) - halfWidth) / sw).rounded(.down)) - 2
                var last = Int(((max(a.x, b.x) + halfWidth) / sw).rounded(.down)) + 2
                if let columns {
                    first = max(first, columns.lowerBound)
                    last = min(last, columns.upperBound - 1)
                }
                guard first <= last else { continue }
                let topLeft = lattice.cell(ofColumn: first, row: firstRow)
                let bottomRight = lattice.cell(ofColumn: last, row: lastRow)
                if settledCells(topLeft.x, topLeft.y, bottomRight.x, bottomRight.y) { continue }
            }
            for row in firstRow...lastRow {
                let top = Double(row) * sh
                let bottom = top + sh
                // Only the part of the segment near this row can ink it.
                guard let span = xSpan(of: a, b, inBand: top - halfWidth, bottom + halfWidth) else {
                    continue
                }
                // Only samples whose centre lies within half the width of the span (the first
                // rule) or whose rectangle meets it (the second) can be inked.
                var firstColumn = min(
                    Int((span.lowerBound / sw).rounded(.down)) - 1,
                    Int(((span.lowerBound - halfWidth) / sw - 0.5 - Self.slack).rounded(.down)))
                var lastColumn = max(
                    Int((span.upperBound / sw).rounded(.down)),
                    Int(((span.upperBound + halfWidth) / sw - 0.5 + Self.slack).rounded(.down)))
                if let columns {
                    firstColumn = max(firstColumn, columns.lowerBound)
                    lastColumn = min(lastColumn, columns.upperBound - 1)
                }
                guard firstColumn <= lastColumn else { continue }
                let centreY = top + sh / 2
                for column in firstColumn...lastColumn where !settled(column, row) {
                    let left = Double(column) * sw
                    let centre = Vector2(left + sw / 2, centreY)
                    let distanceSquared = PlanarGeometry.distanceSquared(from: centre, toSegment: a, b)
                    // A segment further from the centre than the rectangle's corners cannot
                    // touch it: most candidates are settled without the rectangle test.
                    let inked =
                        distanceSquared < halfWidth * halfWidth
                        || (distanceSquared <= reachSquared
                            && PlanarGeometry.segment(
                                a, b, touchesRectMinX: left, minY: top, maxX: left + sw - Self.edge,
                                maxY: bottom - Self.edge))
                    if inked && !shape.hidden(centre) && !body(column, row) { return false }
                }
            }
        }
        return true
    }

    /// The first and last visible sample rows and columns of a stroke, or nil when none is.
    ///
    /// Scans inwards from the edges of the geometric bounds one row or column at a time, so the
    /// cost follows the outline of the ink, not its area (a long wide stroke is cheap to bound).
    func visibleBounds(of stroke: Stroke) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        guard stroke.kind.isPath else { return nil }
        let shape = Shape(stroke)
        let margin = shape.halfWidth
        let box = shape.box
        let sw = lattice.sampleWidth
        let sh = lattice.sampleHeight
        let firstColumn = Int(((box.minX - margin) / sw).rounded(.down)) - 1
        let lastColumn = Int(((box.maxX + margin) / sw).rounded(.down)) + 1
        let firstRow = Int(((box.minY - margin) / sh).rounded(.down)) - 1
        let lastRow = Int(((box.maxY + margin) / sh).rounded(.down)) + 1
        let columns = firstColumn...lastColumn
        let rows = firstRow...lastRow

        func anyVisible(columns: Range<Int>, rows: Range<Int>) -> Bool {
            !forEachVisibleSample(of: shape, columns: columns, rows: rows) { _, _ in false }
        }
        let allColumns = columns.lowerBound..<(columns.upperBound + 1)
        guard let top = rows.first(where: { anyVisible(columns: allColumns, rows: $0..<($0 + 1)) }),
            let bottom = rows.reversed().first(where: { anyVisible(columns: allColumns, rows: $0..<($0 + 1)) }
            )
        else { return nil }
        let usedRows = top..<(bottom + 1)
        guard let left = columns.first(where: { anyVisible(columns: $0..<($0 + 1), rows: usedRows) }),
            let right = columns.reversed().first(where: { anyVisible(columns: $0..<($0 + 1), rows: usedRows) }
            )
        else { return nil }
        return (left...right, top...bottom)
    }

    /// Whether any part of the stroke is still visible in this lattice.
    func hasVisibleInk(_ stroke: Stroke) -> Bool {
        !forEachVisibleSample(of: stroke) { _, _ in false }
    }

    /// The x extent of the part of segment a–b with y in [low, high], widened a little so
    /// rounding can only add candidates, never lose them.
    private func xSpan(of a: Vector2, _ b: Vector2, inBand low: Double, _ high: Double) -> ClosedRange<
        Double
    >? {
        let slack = 1e-9
        let (lo, hi) = (low - slack, high + slack)
        if a.y == b.y {
            guard a.y >= lo && a.y <= hi else { return nil }
            return min(a.x, b.x)...max(a.x, b.x)
        }
        let t1 = (lo - a.y) / (b.y - a.y)
        let t2 = (hi - a.y) / (b.y - a.y)
        let start = max(0, min(t1, t2))
        let end = min(1, max(t1, t2))
        guard start <= end else { return nil }
        let x1 = a.x + (b.x - a.x) * start
        let x2 = a.x + (b.x - a.x) * end
        return (min(x1, x2) - slack)...(max(x1, x2) + slack)
    }
}

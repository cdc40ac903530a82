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
    /// Whether a path no wider than a sample's shorter side is walked exactly, in the grid's
    /// integers (`InkSampler+ThinPaths.swift`); false only in the tests that compare that walk
    /// with the general one.
    let walksThinPathsExactly: Bool

    init(lattice: SampleLattice, walksThinPathsExactly: Bool = true) {
        self.lattice = lattice
        self.walksThinPathsExactly = walksThinPathsExactly
    }

    /// Far below the 1/16 grid, so only points exactly on a right or bottom edge are left out.
    private static let edge = 1e-9
    /// Room for rounding where candidate rows and columns are worked out.
    private static let slack = 1e-9

    /// A stroke's geometry on the canvas (path segments, half width, mask), derived once so that
    /// sampling it many times (as `visibleBounds` does, a row or column at a time) does not
    /// derive it again each time.
    struct Shape {
        /// The path in the stroke's own coordinates; `offsetUnits` (the translation in 1/16-cell
        /// units) places it on the canvas. Points are placed as they are read, so preparing a
        /// stroke allocates nothing for its path.
        private let path: [StrokePoint]
        private let offsetUnits: (x: Int, y: Int)
        /// The same translation in cells, for the floating-point walk.
        private let offset: Vector2
        let halfWidth: Double
        /// The width in 1/16-cell units.
        let widthUnits: Int
        private let mask: [MaskSegment]

        private struct MaskSegment {
            let a: Vector2
            let b: Vector2
            let radius: Double
            let minX, minY, maxX, maxY: Double
        }

        init(_ stroke: Stroke) {
            self.init(
                path: stroke.path, transform: stroke.transform, width: stroke.ink.width, mask: stroke.mask)
        }

        init(path: [StrokePoint], transform: StrokeTransform, width: Double, mask strokeMask: StrokeMask) {
            self.path = path
            offsetUnits = (Int(transform.dxUnits), Int(transform.dyUnits))
            halfWidth = width / 2
            // Exact: a width is on the 1/16 grid.
            widthUnits = Int(width * FixedPoint.unitsPerCell)
            let offset = Vector2(transform.dx, transform.dy)
            self.offset = offset
            mask =
                strokeMask.isEmpty
                ? []
                : strokeMask.sweeps.flatMap { sweep in
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
            let ends = self.ends(of: index)
            return (point(ends.first), point(ends.second))
        }

        /// Segment `index` on the canvas in 1/16-cell units.
        @inline(__always)
        func segmentUnits(_ index: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
            let ends = self.ends(of: index)
            let (first, second) = (pointUnits(ends.first), pointUnits(ends.second))
            return (first.x, first.y, second.x, second.y)
        }

        /// The path's points segment `index` joins: a single point is one degenerate segment.
        @inline(__always)
        private func ends(of index: Int) -> (first: Int, second: Int) {
            path.count == 1 ? (0, 0) : (index, index + 1)
        }

        /// Whether a mask hides any of the stroke.
        var hasMask: Bool { !mask.isEmpty }

        /// Point `index` on the canvas in 1/16-cell units.
        @inline(__always)
        private func pointUnits(_ index: Int) -> (x: Int, y: Int) {
            (Int(path[index].xUnits) + offsetUnits.x, Int(path[index].yUnits) + offsetUnits.y)
        }

        /// Point `index` on the canvas. (Its units over 16 are the same value; a frame in block
        /// glyphs, whose markers are walked from these, read 2% slower computed that way.)
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
    @discardableResult
    @inline(__always)
    func forEachVisibleSample(
        of stroke: Stroke, columns: Range<Int>? = nil, rows: Range<Int>? = nil, _ body: (Int, Int) -> Bool
    ) -> Bool {
        guard stroke.kind.isPath else { return true }
        return withoutActuallyEscaping(body) { body in
            var visitor = ClosureVisitor(body: body)
            return forEachVisibleSample(of: Shape(stroke), columns: columns, rows: rows, &visitor)
        }
    }

    /// `forEachVisibleSample(of:columns:rows:_:)` with the visits made to `visitor`, which also
    /// says which candidates are still open (`SampleVisitor`): whose type the compiler knows
    /// here, so a caller that asks for every candidate of every stroke under a frame (the
    /// raster's walk) has its questions inlined.
    @discardableResult
    @inline(__always)
    func forEachVisibleSample<Visitor: SampleVisitor>(
        of stroke: Stroke, columns: Range<Int>?, rows: Range<Int>?, _ visitor: inout Visitor
    ) -> Bool {
        guard stroke.kind.isPath else { return true }
        return forEachVisibleSample(of: Shape(stroke), columns: columns, rows: rows, &visitor)
    }

    /// `forEachVisibleSample(of:columns:rows:_:)` of a path stroke given by the parts the
    /// sampler reads, so that a caller reading them out of a stored stroke copies only those
    /// (a copy of the whole stroke touches its key's storage too, a cache miss for nothing).
    @discardableResult
    @inline(__always)
    func forEachVisibleSample<Visitor: SampleVisitor>(
        ofPath path: [StrokePoint], transform: StrokeTransform, width: Double, mask: StrokeMask,
        columns: Range<Int>?, rows: Range<Int>?, _ visitor: inout Visitor
    ) -> Bool {
        forEachVisibleSample(
            of: Shape(path: path, transform: transform, width: width, mask: mask), columns: columns,
            rows: rows,
            &visitor)
    }

    /// The closure of the closure-taking form as a visitor: every candidate is open.
    private struct ClosureVisitor: SampleVisitor {
        let body: (Int, Int) -> Bool

        func openSamples(row: Int, from first: Int, through last: Int) -> UInt64 {
            SampleRun.all(from: first, through: last)
        }
        func hasOpenSample(left: Int, top: Int, right: Int, bottom: Int) -> Bool { true }
        mutating func visit(column: Int, row: Int) -> Bool { body(column, row) }
    }

    @inline(__always)
    private func forEachVisibleSample<Visitor: SampleVisitor>(
        of shape: Shape, columns: Range<Int>?, rows: Range<Int>?, _ visitor: inout Visitor
    ) -> Bool {
        if walksThinPathsExactly && shape.widthUnits <= lattice.thinPathWidthUnits {
            return forEachVisibleSample(ofThinPath: shape, columns: columns, rows: rows, &visitor)
        }
        let halfWidth = shape.halfWidth
        let sw = lattice.sampleWidth
        let sh = lattice.sampleHeight
        // Samples per cell, a power of two: multiplying by it is dividing by a sample's size,
        // exactly, without a division.
        let perWidth = Double(lattice.columnsPerCell)
        let perHeight = Double(lattice.rowsPerCell)
        // The square of half a sample's diagonal, with room for rounding: no point of a sample's
        // rectangle is further than that from its centre.
        let reachSquared = (sw * sw + sh * sh) / 4 * (1 + 1e-6) + 1e-12
        // The largest disc inside a sample's rectangle, less room for rounding: a segment that
        // closer to the centre passes through the rectangle, so the rectangle test is not asked.
        let inner = max(min(sw, sh) / 2 - 1e-6, 0)
        let innerSquared = inner * inner
        // A row's candidates come from the part of the segment within the row (the rectangle
        // rule) or within half the width of the row's centre line (the centre rule): one band
        // around the centre line holds both.
        let band = max(sh / 2, halfWidth)
        for segment in 0..<shape.segmentCount {
            let (a, b) = shape.segment(segment)
            let (minX, maxX) = (min(a.x, b.x), max(a.x, b.x))
            let (minY, maxY) = (min(a.y, b.y), max(a.y, b.y))
            // Room for rounding at any coordinate.
            // (Two-argument maxima: the variadic one builds an array for every segment.)
            let margin = 4 * Self.slack + max(max(abs(minX), abs(maxX)), max(abs(minY), abs(maxY))) * 0x1p-44
            // The rows either rule can ink: those the segment's extent meets (the rectangle
            // rule), and those whose centre line lies within half the width of it (the centre
            // rule, whose centres lie half a sample into their row).
            var (firstRow, lastRow) = Self.candidates(
                from: minY - margin, to: maxY + margin, halfWidth: halfWidth, per: perHeight)
            if let rows {
                firstRow = max(firstRow, rows.lowerBound)
                lastRow = min(lastRow, rows.upperBound - 1)
            }
            guard firstRow <= lastRow else { continue }
            // The columns the same way; every candidate of every row lies within them, so a
            // segment whose candidates are all settled is passed over, and so is a row of it
            // whose candidates are, before its part of the segment is worked out.
            var (first, last) = Self.candidates(
                from: minX - margin, to: maxX + margin, halfWidth: halfWidth, per: perWidth)
            if let columns {
                first = max(first, columns.lowerBound)
                last = min(last, columns.upperBound - 1)
            }
            guard first <= last,
                visitor.hasOpenSample(left: first, top: firstRow, right: last, bottom: lastRow)
            else { continue }
            let narrow = last - first < 64
            // The segment's own terms of the distance, worked out once for all its candidates.
            let ab = b - a
            let lengthSquared = ab.x * ab.x + ab.y * ab.y
            // Whether the sample inks (either rule, then the mask): visits it if so; false when
            // the visitor stops.
            @inline(__always)
            func tryCandidate(column: Int, row: Int) -> Bool {
                let left = Double(column) * sw
                let top = Double(row) * sh
                let centre = Vector2(left + sw / 2, top + sh / 2)
                let distanceSquared = PlanarGeometry.distanceSquared(
                    from: centre, toSegment: a, ab, lengthSquared: lengthSquared)
                // A segment further from the centre than the rectangle's corners cannot touch
                // it, and one nearer than its inner disc does: most candidates are settled
                // without the rectangle test.
                let inked =
                    distanceSquared < halfWidth * halfWidth
                    || (distanceSquared <= reachSquared
                        && (distanceSquared < innerSquared
                            || PlanarGeometry.segment(
                                a, b, touchesRectMinX: left, minY: top, maxX: left + sw - Self.edge,
                                maxY: top + sh - Self.edge)))
                return !inked || shape.hidden(centre) || visitor.visit(column: column, row: row)
            }
            // The columns of a row's candidates: only the part of the segment near the row can
            // ink it, and only samples whose rectangle meets that part (the rectangle rule) or
            // whose centre lies within half the width of it (the centre rule). They lie within
            // the segment's candidates, `first` through `last`; nil when none does.
            @inline(__always)
            func rowCandidates(centreY: Double) -> (first: Int, last: Int)? {
                guard let span = xSpan(of: a, b, inBand: centreY - band, centreY + band) else { return nil }
                let (low, high) = Self.candidates(
                    from: span.lowerBound - margin, to: span.upperBound + margin, halfWidth: halfWidth,
                    per: perWidth)
                let (from, through) = (max(low, first), min(high, last))
                return from <= through ? (from, through) : nil
            }
            for row in firstRow...lastRow {
                let centreY = Double(row) * sh + sh / 2
                if narrow {
                    // The segment's open candidates in this row. When they are few (under a
                    // drawing's many strokes, most rows keep one or none), each is tried as it
                    // is: working out the row's part of the segment would cost more than the
                    // tries it saves. Otherwise only those the row's part can ink are tried.
                    var open = visitor.openSamples(row: row, from: first, through: last)
                    if open == 0 { continue }
                    // More than two open (the baseline has no population count instruction).
                    let beyondFirst = open & (open &- 1)
                    if beyondFirst & (beyondFirst &- 1) != 0 {
                        guard let (from, through) = rowCandidates(centreY: centreY) else { continue }
                        open &= SampleRun.all(from: from, through: through) << UInt64(from - first)
                    }
                    while open != 0 {
                        let column = first + open.trailingZeroBitCount
                        open &= open - 1
                        if !tryCandidate(column: column, row: row) { return false }
                    }
                    continue
                }
                guard let (firstColumn, lastColumn) = rowCandidates(centreY: centreY) else { continue }
                // The open candidates only, 64 at a time: a sample a stroke above settled is
                // not tried.
                var start = firstColumn
                while start <= lastColumn {
                    let end = min(lastColumn, start + 63)
                    var open = visitor.openSamples(row: row, from: start, through: end)
                    while open != 0 {
                        let column = start + open.trailingZeroBitCount
                        open &= open - 1
                        if !tryCandidate(column: column, row: row) { return false }
                    }
                    start = end + 1
                }
            }
        }
        return true
    }

    /// The samples along one axis that either rule can ink, for ink reaching from `low` to `high`
    /// (margins for rounding already added): those whose extent meets it (the rectangle rule)
    /// and those whose centre, half a sample in, lies within `halfWidth` of it (the centre
    /// rule). `per` is samples per cell on that axis.
    @inline(__always)
    private static func candidates(from low: Double, to high: Double, halfWidth: Double, per: Double) -> (
        first: Int, last: Int
    ) {
        (
            min(roundedDown(low * per), roundedUp((low - halfWidth) * per - 0.5)),
            max(roundedDown(high * per), roundedDown((high + halfWidth) * per - 0.5))
        )
    }

    /// `Int(value.rounded(.down))` without a call into the C library (this build's baseline
    /// has no rounding instruction): a truncation, one down for a negative value with a fraction.
    /// (A branch-free form that adds 1.5 · 2^52 to read the nearest integer from the low bits
    /// counted fewer instructions under callgrind but made the cold frame 15–20% slower in wall
    /// time: see DECISIONS.md, frame17d and where the parts of stop 17 met.)
    @inline(__always)
    static func roundedDown(_ value: Double) -> Int {
        let truncated = Int(value)
        return Double(truncated) > value ? truncated - 1 : truncated
    }

    /// `Int(value.rounded(.up))`, the same way.
    @inline(__always)
    private static func roundedUp(_ value: Double) -> Int {
        -roundedDown(-value)
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
            var visitor = FirstSample()
            return !forEachVisibleSample(of: shape, columns: columns, rows: rows, &visitor)
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

/// What a walk of a stroke's visible samples asks as it goes (`InkSampler.forEachVisibleSample`):
/// which candidate samples are still open — a settled one is one where nothing a visit could do
/// changes what the caller draws, so it is not tested — and, for each visible sample, the visit
/// itself, which returns false to stop.
protocol SampleVisitor {
    /// Of the candidates `first` through `last` (at most 64 of them) of sample row `row`, the open
    /// ones: bit i for column `first + i`.
    func openSamples(row: Int, from first: Int, through last: Int) -> UInt64
    /// Whether any sample of the rectangle (columns `left` through `right`, rows `top` through
    /// `bottom`) is open: a segment with none is passed over before its rows are worked out.
    func hasOpenSample(left: Int, top: Int, right: Int, bottom: Int) -> Bool
    mutating func visit(column: Int, row: Int) -> Bool
}

/// Runs of candidate samples as the bits `SampleVisitor.openSamples` returns.
enum SampleRun {
    /// Every candidate `first` through `last` (at most 64) open.
    @inline(__always)
    static func all(from first: Int, through last: Int) -> UInt64 {
        // Without a branch: a shift by 64 - count, which is 0 to 63.
        ~0 &>> UInt64(64 &- (last - first + 1))
    }
}

/// Stops at the first visible sample: whether there is one.
private struct FirstSample: SampleVisitor {
    func openSamples(row: Int, from first: Int, through last: Int) -> UInt64 {
        SampleRun.all(from: first, through: last)
    }
    func hasOpenSample(left: Int, top: Int, right: Int, bottom: Int) -> Bool { true }
    mutating func visit(column: Int, row: Int) -> Bool { false }
}

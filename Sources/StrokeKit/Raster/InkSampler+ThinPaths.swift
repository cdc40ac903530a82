/// The samples of a thin path, found exactly in the grid's integers.
///
/// A path no wider than a sample's shorter side (a pen of 1/4 cell in braille, up to 1/2 cell in
/// half blocks) inks exactly the samples its spine passes through: every point within half its
/// width of a sample's centre lies inside the sample's rectangle, so the centre rule adds
/// nothing to the rectangle rule (`InkSampler`). Points, translations and sample edges all lie
/// on the 1/16 grid, so the samples a segment passes through follow from integers: per sample
/// row, the columns between where the segment enters the row and where it leaves it (the row's
/// bottom edge and a column's right edge belong to the next row and column, as the rectangle
/// rule's half-open rectangles say). No candidate is tried and no distance is measured, and a
/// segment costs a division per row edge it crosses, where the general walk works out its
/// candidates in floating point and measures each open one.
///
/// The general walk and this one ink the same samples (`InkSamplerThinPathTests` compares
/// them on random paths of both lattices): its rectangle test keeps a sample's far edges
/// 1e-9 short of the next sample, and a segment of the grid meets that sliver only where it
/// meets the edge itself.
extension InkSampler {
    /// `forEachVisibleSample` of a path no wider than `lattice.thinPathWidthUnits`.
    @inline(__always)
    func forEachVisibleSample<Visitor: SampleVisitor>(
        ofThinPath shape: Shape, columns: Range<Int>?, rows: Range<Int>?, _ visitor: inout Visitor
    ) -> Bool {
        let (columnShift, rowShift) = lattice.unitShifts
        let (sw, sh) = (lattice.sampleWidth, lattice.sampleHeight)
        let hasMask = shape.hasMask
        // Visits the open samples of `first` through `last` in `row` (clipped to `columns`) that
        // the mask leaves; false when the visitor stops.
        @inline(__always)
        func visitRow(_ row: Int, from first: Int, through last: Int) -> Bool {
            var start = first
            var end = last
            if let columns {
                start = max(start, columns.lowerBound)
                end = min(end, columns.upperBound - 1)
            }
            while start <= end {
                let chunkEnd = min(end, start + 63)
                var open = visitor.openSamples(row: row, from: start, through: chunkEnd)
                while open != 0 {
                    let column = start + open.trailingZeroBitCount
                    open &= open &- 1
                    if hasMask
                        && shape.hidden(Vector2(Double(column) * sw + sw / 2, Double(row) * sh + sh / 2))
                    {
                        continue
                    }
                    if !visitor.visit(column: column, row: row) { return false }
                }
                start = chunkEnd + 1
            }
            return true
        }
        for segment in 0..<shape.segmentCount {
            let units = shape.segmentUnits(segment)
            // Top to bottom, so rows are walked in order.
            let (x0, y0, x1, y1) =
                units.y0 <= units.y1
                ? (units.x0, units.y0, units.x1, units.y1) : (units.x1, units.y1, units.x0, units.y0)
            var (firstRow, lastRow) = (y0 >> rowShift, y1 >> rowShift)
            var (first, last) = (min(x0, x1) >> columnShift, max(x0, x1) >> columnShift)
            if let rows {
                firstRow = max(firstRow, rows.lowerBound)
                lastRow = min(lastRow, rows.upperBound - 1)
            }
            if let columns {
                first = max(first, columns.lowerBound)
                last = min(last, columns.upperBound - 1)
            }
            // The samples of the segment's box: when none is open, neither is any it inks.
            guard firstRow <= lastRow, first <= last,
                visitor.hasOpenSample(left: first, top: firstRow, right: last, bottom: lastRow)
            else { continue }
            let (dx, dy) = (x1 - x0, y1 - y0)
            if dy == 0 {
                if !visitRow(firstRow, from: first, through: last) { return false }
                continue
            }
            // Where the segment crosses the top edge of a row below its first, as the column the
            // crossing lies in and whether it lies on that column's left edge: x = x0 + (y -
            // y0)·dx/dy, in units, over a column's width. (Within the coordinate limit, a point
            // and a translation each within 2^24 units, every product stays below 2^53.)
            let denominator = dy << columnShift
            @inline(__always)
            func crossing(ofRowEdge row: Int) -> (column: Int, onEdge: Bool) {
                let numerator = x0 * dy + ((row << rowShift) - y0) * dx
                var column = numerator / denominator
                var remainder = numerator - column * denominator
                if remainder < 0 {
                    column -= 1
                    remainder += denominator
                }
                return (column, remainder == 0)
            }
            // The column where the segment enters each row: at its top end in the first row, at
            // the row's top edge below it.
            var entry = firstRow == y0 >> rowShift ? x0 >> columnShift : crossing(ofRowEdge: firstRow).column
            for row in firstRow...lastRow {
                // Where it leaves the row: at its bottom end in the last row; else at the next
                // row's top edge, which belongs to the next row, so a segment running right
                // that leaves exactly on a column's left edge never reached that column here.
                let exit: Int
                var nextEntry = 0
                if row == y1 >> rowShift {
                    exit = x1 >> columnShift
                } else {
                    let next = crossing(ofRowEdge: row + 1)
                    exit = dx > 0 && next.onEdge ? next.column - 1 : next.column
                    nextEntry = next.column
                }
                if !visitRow(row, from: min(entry, exit), through: max(entry, exit)) { return false }
                entry = nextEntry
            }
        }
        return true
    }
}

/// The sub-cell sample grid a glyph mode can show: braille has 2x4 dots per cell, half blocks
/// (and their ASCII stand-ins) 1x2.
///
/// Sample (i, j) covers the rectangle [i·w, (i+1)·w] × [j·h, (j+1)·h] in canvas cells; its
/// centre decides masking.
struct SampleLattice: Equatable, Sendable {
    let columnsPerCell: Int
    let rowsPerCell: Int

    static let braille = SampleLattice(columnsPerCell: 2, rowsPerCell: 4)
    static let halfBlock = SampleLattice(columnsPerCell: 1, rowsPerCell: 2)

    /// A lattice of `columnsPerCell` by `rowsPerCell` samples per cell, each a power of two.
    private init(columnsPerCell: Int, rowsPerCell: Int) {
        precondition(columnsPerCell.nonzeroBitCount == 1 && rowsPerCell.nonzeroBitCount == 1)
        self.columnsPerCell = columnsPerCell
        self.rowsPerCell = rowsPerCell
    }

    var sampleWidth: Double { 1 / Double(columnsPerCell) }
    var sampleHeight: Double { 1 / Double(rowsPerCell) }

    /// A sample's width and height in 1/16-cell units as powers of two (braille 2^3 by 2^2, half
    /// blocks 2^4 by 2^3): a coordinate in units shifted right by one is its sample column or row.
    var unitShifts: (column: Int, row: Int) {
        (unitsShift - columnsPerCell.trailingZeroBitCount, unitsShift - rowsPerCell.trailingZeroBitCount)
    }

    /// The widest path whose samples are exactly those its spine passes through, in 1/16-cell
    /// units: a sample's shorter side. Within half of it of a sample's centre lies inside the
    /// sample, so the centre rule inks nothing the rectangle rule does not (`InkSampler`).
    var thinPathWidthUnits: Int {
        1 << min(unitShifts.column, unitShifts.row)
    }

    /// Units a cell as a power of two (`FixedPoint.unitsPerCell`, 16).
    private var unitsShift: Int { Int(FixedPoint.unitsPerCell).trailingZeroBitCount }

    /// How far from a stroke's path a sample's centre can be and still be inked by the thin-line
    /// rule, in the coarsest lattice: half the diagonal of a half-block sample, rounded up to the
    /// grid. The eraser uses it to tell whether a sweep can hide anything a mode shows.
    static let maximumThinLineReach: Double = 0.625

    /// The sample columns and rows inside the cells of `rect`.
    func samples(in rect: CellRect) -> (columns: Range<Int>, rows: Range<Int>) {
        (
            (rect.x * columnsPerCell)..<(rect.maxX * columnsPerCell),
            (rect.y * rowsPerCell)..<(rect.maxY * rowsPerCell)
        )
    }

    /// The cell that contains a sample, and the sample's position inside it.
    ///
    /// Both lattices have powers of two per cell, so an arithmetic shift is the floor division
    /// (for negative samples too) and a mask the remainder: a frame asks this for every sample
    /// it tries, and a division by a value known only at run time was a good part of that.
    @inline(__always)
    func cell(ofColumn column: Int, row: Int) -> (x: Int, y: Int, subColumn: Int, subRow: Int) {
        let x = column >> columnsPerCell.trailingZeroBitCount
        let y = row >> rowsPerCell.trailingZeroBitCount
        return (x, y, column & (columnsPerCell - 1), row & (rowsPerCell - 1))
    }

    static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

/// Text attributes of a cell, as the terminal shows them.
public struct CellAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = CellAttributes(rawValue: 1 << 0)
    public static let reverse = CellAttributes(rawValue: 1 << 1)
    public static let dim = CellAttributes(rawValue: 1 << 2)
}

/// One character cell: a glyph and its colours (xterm-256 palette indices; nil is the terminal's
/// default colour).
///
/// A wide glyph (two terminal columns, `terminalColumns == 2`) sits in the left cell of a pair;
/// the right cell holds `Cell.continuationGlyph` with the same colours and shows nothing of its
/// own. `CellGrid` keeps the pairs whole.
public struct Cell: Equatable, Hashable, Sendable {
    public var glyph: Unicode.Scalar
    public var foreground: UInt8?
    public var background: UInt8?
    public var attributes: CellAttributes

    public init(
        _ glyph: Unicode.Scalar, foreground: UInt8? = nil, background: UInt8? = nil,
        attributes: CellAttributes = []
    ) {
        self.glyph = glyph
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    public static let blank = Cell(" ")

    /// Marks the right half of a wide glyph. A Unicode noncharacter, which text never carries
    /// (`put` replaces it), so it cannot be mistaken for something to show.
    public static let continuationGlyph: Unicode.Scalar = "\u{FFFF}"

    /// Whether the glyph takes two columns (the cell to its right is its continuation).
    public var isWide: Bool { glyph.isWideInTerminal }

    /// Whether this is the right half of a wide glyph: the screen skips it.
    public var isContinuation: Bool { glyph == Self.continuationGlyph }

    /// The right half for a wide cell: its colours, no glyph of its own.
    func continuation() -> Cell {
        Cell(Self.continuationGlyph, foreground: foreground, background: background, attributes: attributes)
    }

    /// A space in this cell's colours: what is left of a wide glyph when half of it is overwritten.
    func blanked() -> Cell {
        Cell(" ", foreground: foreground, background: background, attributes: attributes)
    }
}

/// A rectangle of cells that views paint into before anything reaches the terminal.
///
/// Pure and comparable, so renderers are tested with text snapshots; the ncurses screen copies
/// only the cells that changed since the last frame.
public struct CellGrid: Equatable, Sendable {
    public let width: Int
    public private(set) var height: Int
    public private(set) var cells: [Cell]

    /// A grid filled with one cell; a wide or continuation cell fills as a blank in its colours
    /// (a row of wide glyphs would not line up with the columns).
    public init(width: Int, height: Int, filling cell: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        let fill = cell.isWide || cell.isContinuation ? cell.blanked() : cell
        cells = Array(repeating: fill, count: self.width * self.height)
    }

    /// A grid of `cells`, row by row, none of them wide: for the raster, whose glyphs (blocks,
    /// braille, ASCII, shades) all take one column, so no write needs the pair rules.
    init(width: Int, height: Int, narrowCells cells: [Cell]) {
        precondition(cells.count == max(0, width) * max(0, height), "one cell per position")
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = cells
    }

    /// This grid with blank rows added below it up to `height` rows, in one copy (a frame is the
    /// canvas's rows plus the status row; copying 12,000 cells one write at a time costs more).
    public func extended(toHeight newHeight: Int) -> CellGrid {
        guard newHeight > height else { return self }
        var grid = self
        grid.cells += Array(repeating: .blank, count: width * (newHeight - height))
        grid.height = newHeight
        return grid
    }

    public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    /// The cell at a position; outside the grid reads as blank and writes are ignored, so callers
    /// can paint shapes that are partly off screen.
    ///
    /// Writes keep wide glyphs whole: a wide cell also fills its right neighbour with the
    /// continuation (or becomes a space in the last column, where it does not fit), and a cell
    /// written over either half of a wide glyph blanks the other half. A continuation written on
    /// its own is kept only right after its wide glyph (as when a grid is copied cell by cell);
    /// anywhere else it becomes a blank.
    public subscript(x: Int, y: Int) -> Cell {
        get { contains(x: x, y: y) ? cells[y * width + x] : .blank }
        set { if contains(x: x, y: y) { write(newValue, x: x, y: y) } }
    }

    private mutating func write(_ cell: Cell, x: Int, y: Int) {
        let index = y * width + x
        if cell.isContinuation {
            if x > 0, cells[index - 1].isWide {
                cells[index] = cells[index - 1].continuation()
                return
            }
            return write(cell.blanked(), x: x, y: y)
        }
        let cell = cell.isWide && x + 1 >= width ? cell.blanked() : cell
        breakPair(at: index, x: x)
        cells[index] = cell
        guard cell.isWide else { return }
        // The right half lands on a cell that is free, or the continuation of the glyph just
        // replaced, or a wide glyph whose own right half must go.
        if cells[index + 1].isWide { cells[index + 2] = cells[index + 2].blanked() }
        cells[index + 1] = cell.continuation()
    }

    /// Before a write at `index`: the other half of a wide glyph that covers it becomes a blank.
    private mutating func breakPair(at index: Int, x: Int) {
        if cells[index].isContinuation, x > 0 {
            cells[index - 1] = cells[index - 1].blanked()
        } else if cells[index].isWide, x + 1 < width {
            cells[index + 1] = cells[index + 1].blanked()
        }
    }

    /// Writes text from (x, y) to the right, clipped at the edges, and returns the column after
    /// it. Each scalar takes its `terminalColumns`: a wide one fills two cells, one that takes no
    /// column (a combining mark, a joiner) is left out, since a cell holds a single scalar. A wide
    /// glyph cut by an edge shows as a space in the half that is inside.
    @discardableResult
    public mutating func put(
        _ text: String, x: Int, y: Int, foreground: UInt8? = nil, background: UInt8? = nil,
        attributes: CellAttributes = []
    ) -> Int {
        var column = x
        for scalar in text.unicodeScalars {
            let columns = scalar.terminalColumns
            guard columns > 0 else { continue }
            let glyph: Unicode.Scalar = scalar == Cell.continuationGlyph ? "\u{FFFD}" : scalar
            let cell = Cell(glyph, foreground: foreground, background: background, attributes: attributes)
            if column < 0, column + columns > 0 {
                self[0, y] = cell.blanked()  // the left half is off the grid
            } else {
                self[column, y] = cell
            }
            column += columns
        }
        return column
    }

    /// Each row as text, trailing spaces trimmed (colours and attributes dropped); a wide glyph
    /// appears once, its continuation cell adds nothing.
    public var rows: [String] {
        (0..<height).map { y in
            var line = String.UnicodeScalarView()
            for x in 0..<width where !cells[y * width + x].isContinuation {
                line.append(cells[y * width + x].glyph)
            }
            var text = String(line)
            while text.last == " " { text.removeLast() }
            return text
        }
    }

    /// The rows joined with newlines: the form snapshot tests compare.
    public var text: String { rows.joined(separator: "\n") }
}

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
}

/// A rectangle of cells that views paint into before anything reaches the terminal.
///
/// Pure and comparable, so renderers are tested with text snapshots; the ncurses screen copies
/// only the cells that changed since the last frame.
public struct CellGrid: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int, filling cell: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: cell, count: self.width * self.height)
    }

    public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    /// The cell at a position; outside the grid reads as blank and writes are ignored, so callers
    /// can paint shapes that are partly off screen.
    public subscript(x: Int, y: Int) -> Cell {
        get { contains(x: x, y: y) ? cells[y * width + x] : .blank }
        set { if contains(x: x, y: y) { cells[y * width + x] = newValue } }
    }

    /// Writes text from (x, y) to the right, one scalar per cell, clipped at the edge.
    public mutating func put(
        _ text: String, x: Int, y: Int, foreground: UInt8? = nil, background: UInt8? = nil,
        attributes: CellAttributes = []
    ) {
        var column = x
        for scalar in text.unicodeScalars {
            self[column, y] = Cell(scalar, foreground: foreground, background: background, attributes: attributes)
            column += 1
        }
    }

    /// Each row as text, trailing spaces trimmed (colours and attributes dropped).
    public var rows: [String] {
        (0..<height).map { y in
            var line = String.UnicodeScalarView()
            for x in 0..<width { line.append(cells[y * width + x].glyph) }
            var text = String(line)
            while text.last == " " { text.removeLast() }
            return text
        }
    }

    /// The rows joined with newlines: the form snapshot tests compare.
    public var text: String { rows.joined(separator: "\n") }
}

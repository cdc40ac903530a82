/// A screen read with `tmux capture-pane -e`: each cell's glyph with the colours and attributes
/// the program gave it, so a test can see what a person sees (ink in the terminal's own
/// foreground, a cursor in reverse video), not only the characters.
public struct StyledScreen: Equatable, Sendable {
    /// One cell. A colour is an xterm-256 index (the 16 system colours as 0–15); nil is the
    /// terminal's default.
    public struct Cell: Equatable, Sendable {
        public var glyph: Unicode.Scalar
        public var foreground: Int?
        public var background: Int?
        public var bold = false
        public var reverse = false
    }

    public let rows: [[Cell]]

    /// Parses `capture-pane -e -p` output: text with SGR sequences (`ESC[…m`), one line a row.
    /// Sequences other than SGR are skipped; a colour given as RGB (`38;2;r;g;b`) reads as -1.
    public init(capture: String) {
        var rows: [[Cell]] = []
        var style = Cell(glyph: " ")
        for line in capture.split(separator: "\n", omittingEmptySubsequences: false) {
            var row: [Cell] = []
            var scalars = line.unicodeScalars[...]
            while let scalar = scalars.popFirst() {
                guard scalar == "\u{1B}" else {
                    var cell = style
                    cell.glyph = scalar
                    row.append(cell)
                    continue
                }
                guard scalars.first == "[" else { continue }
                scalars.removeFirst()
                var parameters = ""
                while let next = scalars.popFirst() {
                    if (0x40...0x7E).contains(next.value) {
                        if next == "m" { Self.apply(parameters, to: &style) }
                        break
                    }
                    parameters.unicodeScalars.append(next)
                }
            }
            rows.append(row)
        }
        if rows.last?.isEmpty == true { rows.removeLast() }
        self.rows = rows
    }

    /// The cell at a 0-based position; a cell past the end of its row (trailing blanks are not
    /// captured) reads as a blank in default colours.
    public subscript(x: Int, y: Int) -> Cell {
        guard rows.indices.contains(y), rows[y].indices.contains(x) else { return Cell(glyph: " ") }
        return rows[y][x]
    }

    private static func apply(_ parameters: String, to style: inout Cell) {
        var codes = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[
            ...]
        if codes.isEmpty { codes = [0] }
        while let code = codes.popFirst() {
            switch code {
            case 0:
                style = Cell(glyph: " ")
            case 1: style.bold = true
            case 22: style.bold = false
            case 7: style.reverse = true
            case 27: style.reverse = false
            case 30...37: style.foreground = code - 30
            case 90...97: style.foreground = code - 90 + 8
            case 39: style.foreground = nil
            case 40...47: style.background = code - 40
            case 100...107: style.background = code - 100 + 8
            case 49: style.background = nil
            case 38, 48:
                var colour = -1
                switch codes.popFirst() {
                case 5: colour = codes.popFirst() ?? -1
                case 2: codes = codes.dropFirst(3)
                default: break
                }
                if code == 38 { style.foreground = colour } else { style.background = colour }
            default: break
            }
        }
    }
}

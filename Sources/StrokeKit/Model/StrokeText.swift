/// The characters of a text stroke: lines of Unicode scalars, each taking one or two terminal
/// columns (`Unicode.Scalar.terminalColumns`).
///
/// A cell holds one scalar, so what a cell cannot show is left out at the door, as coordinates are
/// snapped there: scalars that take no column (combining marks, joiners, variation selectors),
/// control characters and `Cell.continuationGlyph`. Line feeds split lines; trailing empty lines
/// are dropped (they show nothing). What is left is what is encoded, so a decoded text equals the
/// text that was encoded.
public struct StrokeText: Hashable, Sendable {
    /// Never empty, never ending in an empty line, holding at least one scalar.
    public let lines: [String]

    /// The text of `lines` (each may hold line feeds); nil when nothing showable is left.
    public init?(lines: [String]) {
        var kept: [String] = []
        for line in lines {
            for part in line.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
                var scalars = String.UnicodeScalarView()
                scalars.append(contentsOf: part.filter(Self.isShowable))
                kept.append(String(scalars))
            }
        }
        while kept.last?.isEmpty == true { kept.removeLast() }
        guard !kept.isEmpty else { return nil }
        self.lines = kept
    }

    /// The text of a string, line feeds splitting it into lines.
    public init?(_ text: String) {
        self.init(lines: [text])
    }

    /// Whether a cell can show the scalar: it takes one or two columns and is not a control
    /// character (nor the grid's continuation marker).
    public static func isShowable(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x20, !(0x7F...0x9F).contains(value), value != 0xFFFF else { return false }
        return scalar.terminalColumns > 0
    }

    /// The lines joined with line feeds.
    public var joined: String { lines.joined(separator: "\n") }

    /// The widest line's columns.
    public var width: Int { lines.map(\.terminalColumns).max() ?? 0 }

    /// One cell a character covers, relative to the text's first cell: a narrow character
    /// covers one (`half` 0, `columns` 1), a wide one two (`half` 0 then 1, `columns` 2).
    public struct Placement: Hashable, Sendable {
        public let column: Int
        public let line: Int
        public let scalar: Unicode.Scalar
        /// Which character of the text this is, counted over all lines.
        public let character: Int
        public let columns: Int
        public let half: Int
    }

    /// Every cell of every character, line by line, left to right.
    public var placements: [Placement] {
        var result: [Placement] = []
        var character = 0
        for (line, text) in lines.enumerated() {
            var column = 0
            for scalar in text.unicodeScalars {
                let columns = scalar.terminalColumns
                for half in 0..<columns {
                    result.append(
                        Placement(
                            column: column + half, line: line, scalar: scalar, character: character,
                            columns: columns, half: half))
                }
                column += columns
                character += 1
            }
        }
        return result
    }
}

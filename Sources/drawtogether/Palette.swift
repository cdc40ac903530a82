/// The pen colours on keys 1–9, read from `Resources/palette.txt`.
struct Palette: Equatable {
    struct Entry: Equatable {
        var name: String
        var colour: UInt8
        /// The system colour (0–15) shown on a 16-colour terminal (8–15 in bold on 8 colours).
        var fallback: UInt8
    }

    var entries: [Entry]

    enum ParseError: Error, CustomStringConvertible {
        case badLine(number: Int, text: String)
        case empty

        var description: String {
            switch self {
            case .badLine(let number, let text):
                return
                    "palette.txt line \(number): expected 'KEY NAME COLOUR SYSTEM-COLOUR(0-15)', found '\(text.prefix(60))'"
            case .empty:
                return "palette.txt has no colours"
            }
        }
    }

    /// Lines `KEY NAME XTERM256 FALLBACK`; `#` starts a comment.
    init(text: String) throws {
        var entries: [Entry] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content =
                line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.isEmpty { continue }
            guard fields.count == 4, let colour = UInt8(fields[2]), let fallback = UInt8(fields[3]),
                fallback < 16
            else {
                throw ParseError.badLine(number: index + 1, text: String(line))
            }
            entries.append(Entry(name: String(fields[1]), colour: colour, fallback: fallback))
        }
        guard !entries.isEmpty else { throw ParseError.empty }
        self.entries = entries
    }

    var colours: [UInt8] { entries.map(\.colour) }

    /// Each colour's system colour, for `TerminalScreen.colourReductions`.
    var reductions: [UInt8: UInt8] {
        Dictionary(entries.map { ($0.colour, $0.fallback) }) { first, _ in first }
    }

    /// The name of the colour on key `slot` (1-based), nil when there is none.
    func name(slot: Int) -> String? {
        entries.indices.contains(slot - 1) ? entries[slot - 1].name : nil
    }
}

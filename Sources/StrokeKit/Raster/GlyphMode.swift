/// How ink becomes characters.
public enum GlyphMode: String, CaseIterable, Hashable, Sendable {
    /// Half blocks `▀ ▄ █`: 1x2 samples per cell.
    case block
    /// Braille dots from U+2800: 2x4 samples per cell.
    case braille
    /// `'` (top half), `.` (bottom half) and `#` (both), for terminals without UTF-8: 1x2 samples.
    /// A marker alone shows `:` (see `markerGlyph`).
    case ascii

    var lattice: SampleLattice {
        switch self {
        case .block, .ascii: .halfBlock
        case .braille: .braille
        }
    }

    /// The thinnest line the mode shows, in cells: one sample row (half a cell in blocks and
    /// ASCII, a quarter in braille). A narrower stroke draws exactly like a stroke this wide, so
    /// the status bar tells the user (`brush ¼→½` in blocks).
    public var thinnestLine: Double {
        min(lattice.sampleWidth, lattice.sampleHeight)
    }

    /// The glyph of a cell that a marker highlights and no pen inks: a light shade `░` (U+2591)
    /// in block and braille modes, `:` in ASCII (the pen's ASCII glyphs are `'` `.` `#`, and the
    /// cursor shows `+` on a blank cell).
    public var markerGlyph: Unicode.Scalar {
        switch self {
        case .block, .braille: "\u{2591}"
        case .ascii: ":"
        }
    }

    /// The glyph for a cell whose samples are set in `bits` (bit = subRow * columns + subColumn).
    func glyph(bits: UInt8) -> Unicode.Scalar {
        switch self {
        case .block:
            return switch bits {
            case 0b01: "\u{2580}"
            case 0b10: "\u{2584}"
            default: "\u{2588}"
            }
        case .ascii:
            return switch bits {
            case 0b01: "'"
            case 0b10: "."
            default: "#"
            }
        case .braille:
            // Braille numbers its dots down the left column (1, 2, 3, 7) then the right (4, 5, 6,
            // 8); this maps row-major sample bits onto those dot bits.
            let dotBits: [UInt32] = [0x01, 0x08, 0x02, 0x10, 0x04, 0x20, 0x40, 0x80]
            var value: UInt32 = 0x2800
            for bit in 0..<8 where bits & (1 << bit) != 0 { value |= dotBits[bit] }
            return Unicode.Scalar(value) ?? " "
        }
    }
}

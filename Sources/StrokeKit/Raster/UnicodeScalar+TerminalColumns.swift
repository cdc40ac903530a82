/// How many terminal columns a character takes: what `CellGrid.put` and the chrome's layout
/// measure text with.
///
/// The widths follow glibc's `wcwidth` (2.36, Unicode 15 data) in a UTF-8 locale, which is what
/// tmux and most terminals on Linux use to place characters:
/// - 2 for every code point glibc gives 2: Hangul Jamo initials, the CJK, kana, Hangul syllable
///   and fullwidth-form blocks, and the emoji-presentation symbols (☕ U+2615, ⭐ U+2B50, 🎨 …),
///   plus the whole of planes 2 and 3 (CJK extensions, where glibc gives unassigned code points -1).
/// - 0 for combining and enclosing marks, format characters (zero-width joiner, directional
///   marks, byte-order mark; not the soft hyphen or the Arabic number signs, which print) and the
///   Hangul Jamo vowels and finals that join a preceding initial. Variation selectors are marks.
/// - 1 otherwise, including symbols whose width is "ambiguous" and control characters: the
///   screen draws a control character as a blank, where glibc would say -1.
extension Unicode.Scalar {
    public var terminalColumns: Int {
        let value = value
        if value < 0x300 { return 1 }  // ASCII and Latin-1: the common case, and nothing here is wide
        if isWideInTerminal { return 2 }
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return 0
        case .format: return Self.printsDespiteFormat(value) ? 1 : 0
        default: return 1
        }
    }

    /// Format characters that stand in front of digits and show: the prepended concatenation
    /// marks (Arabic number signs and the like).
    private static func printsDespiteFormat(_ value: UInt32) -> Bool {
        (0x0600...0x0605).contains(value) || value == 0x06DD || value == 0x070F
            || (0x0890...0x0891).contains(value)
            || value == 0x08E2 || value == 0x110BD || value == 0x110CD
    }

    /// Whether the scalar takes two columns; cheaper than `terminalColumns` for the block,
    /// shade and braille glyphs the canvas is drawn with, which every cell write asks about.
    var isWideInTerminal: Bool {
        let value = value
        // Stretches without a wide character, holding ASCII, Latin, box drawing, blocks, shades,
        // geometric shapes and braille.
        if value < 0x1100 || (0x1160..<0x231A).contains(value) || (0x2400..<0x25FD).contains(value)
            || (0x27C0..<0x2B1B).contains(value)
        {
            return false
        }
        return Self.isWide(value)
    }

    private static func isWide(_ value: UInt32) -> Bool {
        // Binary search for the last range that starts at or before the value.
        var low = 0
        var high = wideRanges.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if wideRanges[middle].lowerBound <= value { low = middle } else { high = middle - 1 }
        }
        return wideRanges[low].contains(value)
    }

    /// Sorted, disjoint; taken from glibc 2.36's `wcwidth` on this project's build machine.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x2E99, 0x2E9B...0x2EF3, 0x2F00...0x2FD5, 0x2FF0...0x2FFB, 0x3000...0x3029,
        0x302E...0x303E, 0x3041...0x3096, 0x309B...0x30FF, 0x3105...0x312F, 0x3131...0x318E,
        0x3190...0x31E3, 0x31F0...0x321E, 0x3220...0xA48C, 0xA490...0xA4C6, 0xA960...0xA97C,
        0xAC00...0xD7A3, 0xF900...0xFA6D, 0xFA70...0xFAD9, 0xFE10...0xFE19, 0xFE30...0xFE52,
        0xFE54...0xFE66, 0xFE68...0xFE6B, 0xFF01...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE3,
        0x16FF0...0x16FF1, 0x17000...0x187F7, 0x18800...0x18CD5, 0x18D00...0x18D08, 0x1AFF0...0x1AFF3,
        0x1AFF5...0x1AFFB, 0x1AFFD...0x1AFFE, 0x1B000...0x1B122, 0x1B150...0x1B152, 0x1B164...0x1B167,
        0x1B170...0x1B2FB, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
        0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251, 0x1F260...0x1F265,
        0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA,
        0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440,
        0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A,
        0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC,
        0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6DD...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC,
        0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
        0x1FA70...0x1FA74, 0x1FA78...0x1FA7C, 0x1FA80...0x1FA86, 0x1FA90...0x1FAAC, 0x1FAB0...0x1FABA,
        0x1FAC0...0x1FAC5, 0x1FAD0...0x1FAD9, 0x1FAE0...0x1FAE7, 0x1FAF0...0x1FAF6, 0x20000...0x2FFFD,
        0x30000...0x3FFFD,
    ]
}

extension StringProtocol {
    /// The columns the text takes in a terminal: the sum of its scalars' `terminalColumns`, which
    /// is also how many cells `CellGrid.put` fills with it.
    public var terminalColumns: Int {
        unicodeScalars.reduce(0) { $0 + $1.terminalColumns }
    }
}

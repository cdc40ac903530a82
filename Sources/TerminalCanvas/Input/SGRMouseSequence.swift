/// An xterm SGR (mode 1006) mouse report, `ESC [ < b ; x ; y M` (press or motion) or `... m`
/// (release), parsed from the characters between `ESC [` and the final byte.
///
/// ncurses parses these itself when `TERM` says so; the decoder parses them too for when they
/// arrive as plain characters (a terminal type whose `kmous` is not SGR, or tests typing them).
struct SGRMouseSequence: Equatable {
    /// The button code: low two bits the button (0 left, 3 none), 32 motion, 64 wheel; 4, 8 and 16
    /// are Shift, Meta and Ctrl.
    var code: Int
    /// 0-based cell (the wire is 1-based).
    var x: Int
    var y: Int
    /// `M` rather than `m`: a press or a motion, not a release.
    var isPress: Bool

    var button: Int { code & 0b11 }
    var isMotion: Bool { code & 32 != 0 }
    var isWheel: Bool { code & 64 != 0 }

    /// Parses the parameter bytes (starting with `<`) and the final byte; nil when they are not a
    /// well-formed SGR mouse report.
    init?(parameters: [UInt32], final: UInt32) {
        guard final == 0x4D || final == 0x6D, parameters.first == 0x3C else { return nil }
        var fields: [Int] = []
        var digits = 0
        var value = 0
        for code in parameters.dropFirst() {
            if code == 0x3B {
                guard digits > 0 else { return nil }
                fields.append(value)
                value = 0
                digits = 0
            } else if (0x30...0x39).contains(code) {
                // Six digits is far beyond any terminal; the cap keeps the arithmetic from overflowing.
                digits += 1
                guard digits <= 6 else { return nil }
                value = value * 10 + Int(code - 0x30)
            } else {
                return nil
            }
        }
        guard digits > 0 else { return nil }
        fields.append(value)
        guard fields.count == 3, fields[1] >= 1, fields[2] >= 1 else { return nil }
        code = fields[0]
        x = fields[1] - 1
        y = fields[2] - 1
        isPress = final == 0x4D
    }
}

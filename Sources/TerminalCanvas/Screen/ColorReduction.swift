/// How many colours the terminal can show, and how an xterm-256 palette index is shown on it.
public enum ColorSupport: Equatable, Sendable {
    /// No colour at all (`NO_COLOR`, or a terminal without colours): attributes only.
    case none
    /// The eight ANSI colours: every palette index is reduced to the nearest of them.
    case eight
    /// The full xterm-256 palette.
    case full

    /// The terminal colour number for a palette index (nil: the terminal's default colour).
    public func terminalColor(_ index: UInt8?) -> Int16? {
        guard let index else { return nil }
        switch self {
        case .none: return nil
        case .full: return Int16(index)
        case .eight: return Self.nearestANSIColor(index)
        }
    }

    /// The ANSI colour (0 black, 1 red, 2 green, 3 yellow, 4 blue, 5 magenta, 6 cyan, 7 white)
    /// with the same hue: a channel is on when it is at least half the strongest one, so a dark
    /// red stays red rather than turning black as a nearest-distance match would make it.
    static func nearestANSIColor(_ index: UInt8) -> Int16 {
        if index < 16 { return Int16(index % 8) }
        let (red, green, blue) = rgb(index)
        let strongest = max(red, green, blue)
        let weakest = min(red, green, blue)
        if strongest - weakest < 40 {  // grey
            return strongest < 96 ? 0 : 7
        }
        let half = (strongest + 1) / 2
        var color: Int16 = 0
        if red >= half { color |= 1 }
        if green >= half { color |= 2 }
        if blue >= half { color |= 4 }
        return color
    }

    /// The RGB value xterm gives palette entries 16–255 (a 6x6x6 cube, then 24 greys).
    static func rgb(_ index: UInt8) -> (Int, Int, Int) {
        if index >= 232 {
            let level = 8 + 10 * (Int(index) - 232)
            return (level, level, level)
        }
        let levels = [0, 95, 135, 175, 215, 255]
        let cube = Int(index) - 16
        return (levels[cube / 36], levels[(cube / 6) % 6], levels[cube % 6])
    }
}

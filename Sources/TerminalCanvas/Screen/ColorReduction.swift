import StrokeKit

/// How many colours the terminal can show, and how an xterm-256 palette index is shown on it.
public enum ColorSupport: Equatable, Sendable {
    /// No colour at all (`NO_COLOR`, or a terminal without colours): attributes only.
    case none
    /// The eight ANSI colours; the bright eight are those in bold (as `TERM=xterm` terminals
    /// show bold colours).
    case eight
    /// The sixteen system colours.
    case sixteen
    /// The full xterm-256 palette.
    case full

    /// The support for a terminal that reports `colours` colours.
    public init(colours: Int) {
        switch colours {
        case 256...: self = .full
        case 16...: self = .sixteen
        case 8...: self = .eight
        default: self = .none
        }
    }

    /// How a palette index is shown: the terminal colour number (nil: the terminal's default
    /// foreground or background) and whether it needs bold to be bright.
    public struct Shown: Hashable, Sendable {
        public var color: Int16?
        public var bold: Bool

        public init(color: Int16?, bold: Bool = false) {
            self.color = color
            self.bold = bold
        }
    }

    /// The terminal colour number for a palette index (nil: the terminal's default colour).
    /// Default ink (`Ink.defaultInkColour`) is always the terminal's default.
    public func terminalColor(_ index: UInt8?, reductions: [UInt8: UInt8] = [:]) -> Int16? {
        shown(index, reductions: reductions).color
    }

    /// A palette index on this terminal. `reductions` maps the palette's own colours to the
    /// system colour (0–15) chosen for them, so that every pen stays distinct when only 16 or 8
    /// colours are available; other indices are reduced to the colour with the nearest hue.
    public func shown(_ index: UInt8?, reductions: [UInt8: UInt8] = [:]) -> Shown {
        guard let index, index != Ink.defaultInkColour else { return Shown(color: nil) }
        switch self {
        case .none: return Shown(color: nil)
        case .full: return Shown(color: Int16(index))
        case .sixteen:
            return Shown(color: Int16(reductions[index].map { $0 % 16 } ?? Self.nearestSystemColor(index)))
        case .eight:
            let system = reductions[index].map { $0 % 16 } ?? Self.nearestSystemColor(index)
            return Shown(color: Int16(system % 8), bold: system >= 8)
        }
    }

    /// A system colour (0–15) for an index: itself below 16, else the ANSI colour with the same
    /// hue (see `nearestANSIColor`), bright when its strongest channel is near full.
    static func nearestSystemColor(_ index: UInt8) -> UInt8 {
        if index < 16 { return index }
        let ansi = UInt8(nearestANSIColor(index))
        let (red, green, blue) = rgb(index)
        return max(red, green, blue) >= 230 && ansi != 0 ? ansi + 8 : ansi
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

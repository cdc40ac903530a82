/// The standard xterm-256 palette as RGB, so exports outside a terminal show the colours the
/// terminal would.
///
/// Indices 0–15 are the system colours (the xterm defaults most terminals copy), 16–231 a
/// 6×6×6 cube whose channel levels are 0, 95, 135, 175, 215, 255, and 232–255 a ramp of 24
/// greys 8, 18, …, 238.
public enum XtermPalette {
    /// An RGB colour, one byte a channel.
    public struct RGB: Hashable, Sendable {
        public let red: UInt8
        public let green: UInt8
        public let blue: UInt8

        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// `#rrggbb` in lowercase hex, as SVG and CSS write colours.
        public var hex: String {
            let digits = Array("0123456789abcdef".unicodeScalars)
            var text = "#"
            for byte in [red, green, blue] {
                text.unicodeScalars.append(digits[Int(byte >> 4)])
                text.unicodeScalars.append(digits[Int(byte & 0xF)])
            }
            return text
        }
    }

    private static let system: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (128, 0, 0), (0, 128, 0), (128, 128, 0),
        (0, 0, 128), (128, 0, 128), (0, 128, 128), (192, 192, 192),
        (128, 128, 128), (255, 0, 0), (0, 255, 0), (255, 255, 0),
        (0, 0, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    private static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// The RGB value of a palette index.
    public static func rgb(_ index: UInt8) -> RGB {
        switch index {
        case 0..<16:
            let (r, g, b) = system[Int(index)]
            return RGB(red: r, green: g, blue: b)
        case 16..<232:
            let cube = Int(index) - 16
            return RGB(
                red: cubeLevels[cube / 36], green: cubeLevels[(cube / 6) % 6], blue: cubeLevels[cube % 6])
        default:
            let level = 8 + 10 * (index - 232)
            return RGB(red: level, green: level, blue: level)
        }
    }

    /// `#rrggbb` of a palette index.
    public static func hex(_ index: UInt8) -> String {
        rgb(index).hex
    }
}

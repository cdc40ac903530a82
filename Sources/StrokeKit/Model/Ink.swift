/// How a stroke looks: tool, colour (an xterm-256 palette index) and width in cells.
///
/// One index is not a fixed colour: `defaultInkColour` is "default ink", which each viewer shows
/// in its own terminal's foreground (black on a light theme, light on a dark one).
///
/// Four bytes: the width is kept as its number of 1/16-cell units (1...1024), since every stroke
/// piece of a drawing holds its ink.
public struct Ink: Hashable, Sendable {
    public var tool: InkTool
    public var colour: UInt8
    private var widthUnits: UInt16

    /// The width in cells, on the 1/16 grid, within `Ink.widthRange` (a width set is snapped and
    /// clamped to it).
    public var width: Double {
        get { FixedPoint.value(units: Int64(widthUnits)) }
        set { widthUnits = Self.units(ofWidth: newValue) }
    }

    private static func units(ofWidth width: Double) -> UInt16 {
        UInt16(FixedPoint.units(FixedPoint.quantizeLength(width, in: widthRange)))
    }

    /// The index stored for default ink. It is 15, the one the first palette entry (white)
    /// always had, so strokes drawn with the default pen before default ink existed become
    /// default ink too; a viewer that does not know default ink still shows them white.
    public static let defaultInkColour: UInt8 = 15

    /// Whether this ink is default ink (shown in the viewer's foreground colour).
    public var isDefaultInk: Bool { colour == Self.defaultInkColour }

    /// Widths the model keeps: at least one grid step, at most 64 cells.
    public static let widthRange: ClosedRange<Double> = (1.0 / 16)...64

    public init(tool: InkTool, colour: UInt8, width: Double) {
        self.tool = tool
        self.colour = colour
        widthUnits = Self.units(ofWidth: width)
    }

    /// The tool's default width.
    public init(tool: InkTool, colour: UInt8) {
        self.init(tool: tool, colour: colour, width: tool.defaultWidth)
    }
}

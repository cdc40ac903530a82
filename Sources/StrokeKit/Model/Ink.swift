/// How a stroke looks: tool, colour (an xterm-256 palette index) and width in cells.
public struct Ink: Hashable, Sendable {
    public var tool: InkTool
    public var colour: UInt8
    /// The width in cells, on the 1/16 grid, within `Ink.widthRange`.
    public var width: Double {
        didSet { width = FixedPoint.quantizeLength(width, in: Self.widthRange) }
    }

    /// Widths the model keeps: at least one grid step, at most 64 cells.
    public static let widthRange: ClosedRange<Double> = (1.0 / 16)...64

    public init(tool: InkTool, colour: UInt8, width: Double) {
        self.tool = tool
        self.colour = colour
        self.width = FixedPoint.quantizeLength(width, in: Self.widthRange)
    }

    /// The tool's default width.
    public init(tool: InkTool, colour: UInt8) {
        self.init(tool: tool, colour: colour, width: tool.defaultWidth)
    }
}

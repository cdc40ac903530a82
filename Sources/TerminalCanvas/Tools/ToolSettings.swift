import StrokeKit

/// The colour, the pen's and the marker's widths and the eraser's size, as the number keys and
/// `[` `]` set them.
public struct ToolSettings: Hashable, Sendable {
    /// xterm-256 colour indices for keys 1, 2, 3, ...; never empty.
    public let palette: [UInt8]
    /// The selected colour key, 1-based; the pen and the marker share it.
    public private(set) var colourSlot: Int = 1
    /// A colour of the 256 that no key holds, picked from the palette overlay or by the
    /// eyedropper; nil while the colour is the key's.
    public private(set) var colourOutsidePalette: UInt8?
    public private(set) var penWidthLevel: Int
    public private(set) var markerWidthLevel: Int
    public private(set) var eraserSizeLevel: Int

    /// Pen widths in cells, thinnest first; the first is the pen's default.
    public static let penWidths: [Double] = [InkTool.pen.defaultWidth, 0.5, 1, 2, 3, 4]
    /// Marker widths in whole cells, thinnest first; the first is the marker's default. A
    /// marker fills the cells it covers, so a fraction of a cell would look like one cell.
    public static let markerWidths: [Double] = [InkTool.marker.defaultWidth, 2, 3, 4]
    /// Eraser brush diameters in cells, smallest first.
    public static let eraserSizes: [Double] = [0.5, 1, 1.5, 2, 3, 4]
    /// The colour used when the palette given is empty (xterm white).
    public static let fallbackColour: UInt8 = 15

    /// Settings for a palette (an empty one becomes white alone); the thinnest pen and marker, a
    /// one-cell eraser.
    public init(palette: [UInt8]) {
        self.palette = palette.isEmpty ? [Self.fallbackColour] : palette
        penWidthLevel = 0
        markerWidthLevel = 0
        eraserSizeLevel = 1
    }

    public var colour: UInt8 { colourOutsidePalette ?? palette[colourSlot - 1] }
    public var penWidth: Double { Self.penWidths[penWidthLevel] }
    public var markerWidth: Double { Self.markerWidths[markerWidthLevel] }
    /// The eraser brush's diameter in cells.
    public var eraserSize: Double { Self.eraserSizes[eraserSizeLevel] }

    /// The ink of the next pen stroke.
    public var ink: Ink { Ink(tool: .pen, colour: colour, width: penWidth) }
    /// The ink of the next marker stroke.
    public var markerInk: Ink { Ink(tool: .marker, colour: colour, width: markerWidth) }
    /// The mask eraser's brush: a disc of `eraserSize` across.
    public var eraserBrush: EraserBrush { EraserBrush(radius: eraserSize / 2) }

    /// Selects colour key `slot` (1-based); false, changing nothing, when the palette has no such
    /// key.
    public mutating func selectColour(slot: Int) -> Bool {
        guard palette.indices.contains(slot - 1) else { return false }
        colourSlot = slot
        colourOutsidePalette = nil
        return true
    }

    /// Selects an xterm-256 colour: its key when one holds it, the colour alone otherwise.
    public mutating func selectColour(value: UInt8) {
        if let index = palette.firstIndex(of: value) {
            colourSlot = index + 1
            colourOutsidePalette = nil
        } else {
            colourOutsidePalette = value
        }
    }

    /// One size step up (`]`) or down (`[`) for a tool, stopping at the ends; false when already
    /// there or when the tool has no size.
    public mutating func changeSize(for tool: ToolKind, by steps: Int) -> Bool {
        func step(_ level: inout Int, count: Int) -> Bool {
            let next = min(max(level + steps, 0), count - 1)
            defer { level = next }
            return next != level
        }
        switch tool {
        case .pen, .shape: return step(&penWidthLevel, count: Self.penWidths.count)
        case .marker: return step(&markerWidthLevel, count: Self.markerWidths.count)
        case .maskEraser: return step(&eraserSizeLevel, count: Self.eraserSizes.count)
        case .strokeEraser, .text, .select, .eyedropper: return false
        }
    }

    /// The size the status bar shows for a tool, in cells; nil for a tool without a size.
    public func size(for tool: ToolKind) -> Double? {
        switch tool {
        case .pen, .shape: penWidth
        case .marker: markerWidth
        case .maskEraser: eraserSize
        case .strokeEraser, .text, .select, .eyedropper: nil
        }
    }
}

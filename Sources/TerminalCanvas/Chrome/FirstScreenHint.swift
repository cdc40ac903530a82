import StrokeKit

/// The line a newcomer reads above the status bar on an empty canvas, until the first stroke:
/// what to press for help, how to draw, how to leave.
public struct FirstScreenHint: Equatable, Sendable {
    public var glyphs: ChromeGlyphs

    public init(glyphs: ChromeGlyphs = .unicode) {
        self.glyphs = glyphs
    }

    /// `? help · drag to draw · q quit` (with `-` between the parts in ASCII).
    public var text: String {
        let dot = glyphs.isASCII ? "-" : "·"
        return ["? help", "drag to draw", "q quit"].joined(separator: " \(dot) ")
    }

    /// Paints the hint, dimmed, from the second column of `row`; cut to the grid's width.
    public func paint(into grid: inout CellGrid, row: Int) {
        let line = text.truncated(to: max(0, grid.width - 2), ellipsis: glyphs.ellipsis)
        grid.put(line, x: 1, y: row, attributes: .dim)
    }
}

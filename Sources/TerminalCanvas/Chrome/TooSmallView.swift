import StrokeKit

/// What the screen shows instead of the canvas when the terminal is too small to draw in.
public struct TooSmallView: Equatable, Sendable {
    /// Below this many columns or rows the app shows this view and nothing else.
    public static let minimumWidth = 20
    public static let minimumHeight = 6

    public static func isTooSmall(width: Int, height: Int) -> Bool {
        width < minimumWidth || height < minimumHeight
    }

    public var glyphs: ChromeGlyphs

    public init(glyphs: ChromeGlyphs = .unicode) {
        self.glyphs = glyphs
    }

    /// Clears the grid and centres the message, wrapped to whatever width there is.
    public func paint(into grid: inout CellGrid) {
        grid = CellGrid(width: grid.width, height: grid.height)
        let message =
            "Terminal too small: \(grid.width)x\(grid.height), "
            + "needs \(Self.minimumWidth)x\(Self.minimumHeight)"
        let lines = Array(message.wrapped(to: grid.width, ellipsis: glyphs.ellipsis).prefix(grid.height))
        let top = (grid.height - lines.count) / 2
        for (index, line) in lines.enumerated() {
            grid.put(line, x: (grid.width - line.cellWidth) / 2, y: top + index, attributes: .bold)
        }
    }
}

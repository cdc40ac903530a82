import StrokeKit

/// What the screen shows instead of the canvas when the terminal is too small to draw in.
public struct TooSmallView: Equatable, Sendable {
    /// Below this many columns or rows the app shows this view and nothing else.
    public static let minimumWidth = 20
    public static let minimumHeight = 6

    public static func isTooSmall(width: Int, height: Int) -> Bool {
        width < minimumWidth || height < minimumHeight
    }

    /// Whether the app acts on an event while this view is shown: only quitting and resizes.
    /// The user cannot see the canvas, so nothing may edit it (a drag, the keyboard pen, the
    /// drawings menu's keys) or move it out from under them.
    public static func allows(_ event: InputEvent) -> Bool {
        switch event {
        case .resize, .command(.quit): true
        case .command, .character, .enter, .backspace, .mouse: false
        }
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
            grid.put(line, x: (grid.width - line.terminalColumns) / 2, y: top + index, attributes: .bold)
        }
    }
}

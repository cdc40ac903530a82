import StrokeKit

/// The message line above the status bar (a refused peer, a failed save): the text in reverse
/// video against the right edge, cut with an ellipsis when the screen is narrower.
///
/// Measured in terminal columns, so a message with wide characters stays on its row instead of
/// spilling onto the status bar.
public struct MessageLineView: Equatable, Sendable {
    public var message: String
    public var glyphs: ChromeGlyphs

    public init(message: String, glyphs: ChromeGlyphs = .unicode) {
        self.message = message
        self.glyphs = glyphs
    }

    /// Paints the message, with a space either side, ending at the grid's right edge.
    public func paint(into grid: inout CellGrid, row: Int) {
        guard grid.width > 0 else { return }
        let text = (" " + message.truncated(to: max(0, grid.width - 2), ellipsis: glyphs.ellipsis) + " ")
            .truncated(to: grid.width, ellipsis: glyphs.ellipsis)
        grid.put(text, x: grid.width - text.cellWidth, y: row, attributes: .reverse)
    }
}

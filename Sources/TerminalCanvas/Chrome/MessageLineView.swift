import StrokeKit

/// The message lines above the status bar (a refused peer, a failed save): the text in reverse
/// video against the right edge, broken at spaces onto as many lines as it needs up to a limit,
/// since the end of a message is often what to do; only what still does not fit is cut, with an
/// ellipsis.
///
/// Measured in terminal columns, so a message with wide characters stays in its rows instead of
/// spilling onto the status bar.
public struct MessageLineView: Equatable, Sendable {
    public var message: String
    public var glyphs: ChromeGlyphs
    /// The most lines the message may take.
    public var maximumLines: Int

    public init(message: String, glyphs: ChromeGlyphs = .unicode, maximumLines: Int = 3) {
        self.message = message
        self.glyphs = glyphs
        self.maximumLines = maximumLines
    }

    /// Paints the message, each line with a space either side and ending at the grid's right
    /// edge, its last line on `row` and the others above it (never above row 0).
    public func paint(into grid: inout CellGrid, row: Int) {
        let shown = lines(width: grid.width - 2, maximum: min(maximumLines, row + 1))
        for (index, line) in shown.enumerated() {
            let text = " " + line + " "
            grid.put(
                text, x: grid.width - text.terminalColumns, y: row - shown.count + 1 + index,
                attributes: .reverse)
        }
    }

    /// The message broken at spaces into lines of at most `width` columns (a word longer than
    /// a line is cut with an ellipsis), at most `maximum` of them; when it still does not fit,
    /// the last line ends in an ellipsis.
    public func lines(width: Int, maximum: Int) -> [String] {
        guard maximum > 0 else { return [] }
        let lines = message.wrapped(to: width, ellipsis: glyphs.ellipsis)
        guard lines.count > maximum else { return lines }
        var kept = Array(lines.prefix(maximum))
        kept[maximum - 1] = (kept[maximum - 1] + " " + lines[maximum]).truncated(
            to: width, ellipsis: glyphs.ellipsis)
        return kept
    }
}

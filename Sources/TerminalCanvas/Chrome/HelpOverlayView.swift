import StrokeKit

/// A framed box in the middle of the screen listing the keys.
///
/// The text comes in from outside (`Resources/help/keys.txt` at run time), so the help a user
/// reads and the help in `--help` cannot drift apart.
public struct HelpOverlayView: Equatable, Sendable {
    public var text: String
    public var title: String
    public var footer: String
    public var glyphs: ChromeGlyphs

    public init(
        text: String, title: String = "Keys", footer: String = "? or Esc closes", glyphs: ChromeGlyphs = .unicode
    ) {
        self.text = text
        self.title = title
        self.footer = footer
        self.glyphs = glyphs
    }

    /// The text's lines, without the trailing empty ones a file usually ends with.
    var lines: [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.trimmingTrailingSpaces.isEmpty == true { lines.removeLast() }
        return lines.map(\.trimmingTrailingSpaces)
    }

    /// Paints the box over whatever is in the grid, shrunk to fit: long lines are cut, and when
    /// rows run out the last visible one says there is more.
    public func paint(into grid: inout CellGrid) {
        let lines = lines
        let contentWidth = max(lines.map(\.cellWidth).max() ?? 0, title.cellWidth + 2, footer.cellWidth + 2)
        let width = min(contentWidth + 4, grid.width)
        let height = min(lines.count + 2, grid.height)
        guard width >= 4, height >= 3 else { return }
        let left = (grid.width - width) / 2
        let top = (grid.height - height) / 2
        let innerWidth = width - 4
        let innerHeight = height - 2

        drawFrame(into: &grid, left: left, top: top, width: width, height: height)
        for row in 0..<innerHeight {
            var line = lines[row]
            if row == innerHeight - 1, innerHeight < lines.count {
                line = String(glyphs.ellipsis)
            }
            let y = top + 1 + row
            grid.put(String(repeating: " ", count: width - 2), x: left + 1, y: y)
            grid.put(line.truncated(to: innerWidth, ellipsis: glyphs.ellipsis), x: left + 2, y: y)
        }
    }

    private func drawFrame(into grid: inout CellGrid, left: Int, top: Int, width: Int, height: Int) {
        let bottom = top + height - 1
        let right = left + width - 1
        let rule = String(repeating: Character(glyphs.horizontal), count: width - 2)
        grid.put(String(glyphs.topLeft) + rule + String(glyphs.topRight), x: left, y: top)
        grid.put(String(glyphs.bottomLeft) + rule + String(glyphs.bottomRight), x: left, y: bottom)
        for y in (top + 1)..<bottom {
            grid[left, y] = Cell(glyphs.vertical)
            grid[right, y] = Cell(glyphs.vertical)
        }
        // Labels sit on the frame, one rule character in from the corner, when they fit whole; an
        // empty one leaves the rule unbroken.
        if !title.isEmpty, title.cellWidth + 2 <= width - 4 {
            grid.put(" \(title) ", x: left + 2, y: top, attributes: .bold)
        }
        if !footer.isEmpty, footer.cellWidth + 2 <= width - 4 {
            grid.put(" \(footer) ", x: right - 2 - (footer.cellWidth + 2) + 1, y: bottom)
        }
    }
}

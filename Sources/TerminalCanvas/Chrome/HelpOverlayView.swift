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
    /// The first line shown when the text is taller than the screen (the reader scrolls with the
    /// arrow keys); kept within range when painting.
    public var firstLine: Int
    /// The narrowest the text area is, in columns: a box whose text changes (a menu's prompts)
    /// then keeps its size instead of jumping.
    public var minimumContentWidth = 0

    public init(
        text: String, title: String = "Keys", footer: String = "? or Esc closes",
        glyphs: ChromeGlyphs = .unicode,
        firstLine: Int = 0
    ) {
        self.text = text
        self.title = title
        self.footer = footer
        self.glyphs = glyphs
        self.firstLine = firstLine
    }

    /// The largest useful `firstLine` on a screen `gridHeight` rows tall: 0 when the text fits.
    public func lastFirstLine(gridHeight: Int) -> Int {
        max(0, lines.count - max(1, gridHeight - 2))
    }

    /// `firstLine` within range for a screen `gridHeight` rows tall: the first line shown.
    public func clampedFirstLine(gridHeight: Int) -> Int {
        min(max(firstLine, 0), lastFirstLine(gridHeight: gridHeight))
    }

    /// The text's lines, without the trailing empty ones a file usually ends with.
    var lines: [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.trimmingTrailingSpaces.isEmpty == true { lines.removeLast() }
        return lines.map(\.trimmingTrailingSpaces)
    }

    /// Paints the box over whatever is in the grid, shrunk to fit: long lines are cut, and when
    /// rows run out it shows the lines from `firstLine` on, with arrows on the frame where there
    /// is more and a footer saying how to scroll.
    public func paint(into grid: inout CellGrid) {
        let lines = lines
        let scrolls = lines.count + 2 > grid.height
        guard let box = frame(gridWidth: grid.width, gridHeight: grid.height) else { return }
        let (left, top, width, height) = (box.x, box.y, box.width, box.height)
        let innerWidth = width - 4
        let innerHeight = height - 2

        let first = clampedFirstLine(gridHeight: grid.height)
        drawFrame(
            into: &grid, left: left, top: top, width: width, height: height,
            footer: scrolls ? scrollFooter : footer, footerInset: scrolls ? 4 : 2)
        // The arrows sit next to the right-hand corners, where the footer leaves room for them.
        if first > 0 { grid[left + width - 2, top] = Cell(glyphs.moreAbove, attributes: .bold) }
        if first + innerHeight < lines.count {
            grid[left + width - 2, top + height - 1] = Cell(glyphs.moreBelow, attributes: .bold)
        }
        for row in 0..<innerHeight {
            let line = lines[first + row]
            let y = top + 1 + row
            grid.put(String(repeating: " ", count: width - 2), x: left + 1, y: y)
            grid.put(line.truncated(to: innerWidth, ellipsis: glyphs.ellipsis), x: left + 2, y: y)
        }
    }

    /// Where the box is on a grid of this size (frame included); nil when it does not fit at all.
    /// A click outside it closes the overlay.
    public func frame(gridWidth: Int, gridHeight: Int) -> CellRect? {
        let lines = lines
        let scrolls = lines.count + 2 > gridHeight
        // Wide enough for the footer in use, which for a scrolling box leaves room for an arrow.
        let footerWidth = scrolls ? scrollFooter.terminalColumns + 4 : footer.terminalColumns + 2
        let contentWidth = max(
            lines.map(\.terminalColumns).max() ?? 0, title.terminalColumns + 2, footerWidth,
            minimumContentWidth)
        let width = min(contentWidth + 4, gridWidth)
        let height = min(lines.count + 2, gridHeight)
        guard width >= 4, height >= 3 else { return nil }
        return CellRect(
            x: (gridWidth - width) / 2, y: (gridHeight - height) / 2, width: width, height: height)
    }

    /// The footer while the text does not fit: how to see the rest.
    var scrollFooter: String { glyphs.isASCII ? "up/down scroll, Esc closes" : "↑ ↓ scroll · Esc closes" }

    private func drawFrame(
        into grid: inout CellGrid, left: Int, top: Int, width: Int, height: Int, footer: String,
        footerInset: Int
    ) {
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
        if !title.isEmpty, title.terminalColumns + 2 <= width - 4 {
            grid.put(" \(title) ", x: left + 2, y: top, attributes: .bold)
        }
        if !footer.isEmpty, footer.terminalColumns + 2 <= width - 2 - footerInset {
            grid.put(" \(footer) ", x: right - footerInset - (footer.terminalColumns + 2) + 1, y: bottom)
        }
    }
}

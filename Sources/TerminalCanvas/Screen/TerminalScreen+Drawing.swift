@preconcurrency import CNcurses
import StrokeKit

/// Copying frames to the terminal.
extension TerminalScreen {
    /// Shows `grid`, sending only the cells that differ from the previous frame. A grid of
    /// another size than the last one (after a resize) is painted whole.
    ///
    /// Curses draws a wide glyph over two columns, so its continuation cell is never sent. A
    /// changed row where either frame has a wide glyph is sent whole, left to right: a glyph
    /// that replaces half of a wide one, or a wide one that covers a narrow neighbour, then
    /// leaves nothing of the old pair behind. Such rows are rare (names in the chrome), and
    /// curses itself still sends the terminal only what changed.
    public func draw(_ grid: CellGrid) {
        guard isActive, !isSuspended else { return }
        let previous = previousFrame.flatMap { $0.width == grid.width && $0.height == grid.height ? $0 : nil }
        let width = min(grid.width, size.width)
        let height = min(grid.height, size.height)
        for y in 0..<height {
            var wholeRow = true
            if let previous {
                guard (0..<width).contains(where: { previous[$0, y] != grid[$0, y] }) else { continue }
                wholeRow =
                    Self.hasWideGlyph(grid, row: y, width: width)
                    || Self.hasWideGlyph(previous, row: y, width: width)
            }
            for x in 0..<width where wholeRow || previous?[x, y] != grid[x, y] {
                var cell = grid[x, y]
                if cell.isContinuation {
                    // Curses drew the wide glyph over this column; without Unicode it drew a
                    // one-column `?`, and this column needs a blank of its own.
                    guard !supportsUnicode else { continue }
                    cell.glyph = " "
                } else if cell.isWide, x + 1 >= width {
                    cell.glyph = " "  // cut in half by a terminal narrower than the grid
                }
                put(cell, x: x, y: y)
            }
        }
        refresh()
        previousFrame = grid
    }

    private static func hasWideGlyph(_ grid: CellGrid, row y: Int, width: Int) -> Bool {
        (0..<width).contains { grid[$0, y].isWide || grid[$0, y].isContinuation }
    }

    private func put(_ cell: Cell, x: Int, y: Int) {
        var glyph = cell.glyph
        if glyph.value < 0x20 || (0x7F...0x9F).contains(glyph.value) || glyph.terminalColumns == 0 {
            glyph = " "  // control characters and lone marks would move the cursor or join a neighbour
        } else if !supportsUnicode, !glyph.isASCII {
            // The caller should have picked ASCII glyphs; never send bytes the locale cannot show.
            glyph = "?"
        }
        let (pair, extra) = colorPair(for: cell)
        // The bottom-right cell returns ERR (the cursor cannot advance past it) but is drawn.
        _ = cn_mvadd_wch_cp(Int32(y), Int32(x), glyph.value, pair, attributes(cell.attributes) | extra)
    }

    private func attributes(_ attributes: CellAttributes) -> attr_t {
        var result = attr_t(0)
        if attributes.contains(.bold) { result |= cn_a_bold() }
        if attributes.contains(.reverse) { result |= cn_a_reverse() }
        if attributes.contains(.dim) { result |= cn_a_dim() }
        return result
    }

    /// The colour pair for a cell and the attributes it needs besides the cell's own: bold for
    /// a bright colour on an 8-colour terminal, and reverse video for a background of default
    /// ink (a marker band in default ink). The terminal has no colour number for its own
    /// foreground as a background, but reverse video of the default colours paints exactly that:
    /// the pair then holds the glyph's colour as its background.
    private func colorPair(for cell: Cell) -> (Int16, attr_t) {
        guard colorSupport != .none else { return (0, 0) }
        let foreground = colorSupport.shown(cell.foreground, reductions: colourReductions)
        var extra: attr_t = foreground.bold ? cn_a_bold() : 0
        if cell.background == Ink.defaultInkColour, !cell.attributes.contains(.reverse) {
            extra |= cn_a_reverse()
            return (colorPair(foreground: nil, background: foreground.color), extra)
        }
        let background = colorSupport.shown(cell.background, reductions: colourReductions)
        return (colorPair(foreground: foreground.color, background: background.color), extra)
    }

    /// The pair for two terminal colours, made on first use. When pairs run out, the terminal's
    /// default colours are used rather than failing.
    private func colorPair(foreground: Int16?, background: Int16?) -> Int16 {
        var key = ColorPairKey(foreground: foreground, background: background)
        if !defaultColorsWork {
            // Without use_default_colors, -1 is not a colour: fall back to white on black.
            key.foreground = key.foreground ?? 7
            key.background = key.background ?? 0
        } else if key.foreground == nil, key.background == nil {
            return 0
        }
        if let pair = colorPairs[key] { return pair }
        let limit = Int16(clamping: min(Int(cn_color_pairs()), Int(Int16.max)))
        guard nextColorPair < limit else { return 0 }
        let pair = nextColorPair
        guard init_pair(pair, key.foreground ?? -1, key.background ?? -1) == OK else { return 0 }
        nextColorPair += 1
        colorPairs[key] = pair
        return pair
    }
}

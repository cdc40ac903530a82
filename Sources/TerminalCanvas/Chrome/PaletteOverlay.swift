import StrokeKit

/// The palette overlay (`C`): all 256 xterm colours in a framed 16 by 16 grid of swatches, the
/// current colour marked, one highlighted for the keys. Modal like the help: arrows (or h j k l)
/// move the highlight, Enter or space picks it, a click on a swatch picks that one, and Esc,
/// `C`, `q` or a click outside the box close it.
public struct PaletteOverlay: Equatable, Sendable {
    /// What the user did with the overlay.
    public enum Action: Equatable, Sendable {
        case pick(UInt8)
        case close
    }

    /// The colour in use, marked on its swatch.
    public let current: UInt8
    /// The swatch the keys act on; it starts on the current colour.
    public private(set) var highlighted: UInt8
    public var glyphs: ChromeGlyphs

    /// Swatches a row (and rows): 16 by 16 is the 256 colours, and rows of 16 keep the system
    /// colours on one row and the 6×6×6 cube's and the grey ramp's runs unbroken in the middle.
    public static let columns = 16

    public init(current: UInt8, glyphs: ChromeGlyphs = .unicode) {
        self.current = current
        highlighted = current
        self.glyphs = glyphs
    }

    /// Where the box is on a grid of this size, frame included, and how wide a swatch is (3
    /// cells, fewer on a narrow screen); nil when not even one-cell swatches fit.
    public func frame(gridWidth: Int, gridHeight: Int) -> (box: CellRect, swatchWidth: Int)? {
        guard let swatchWidth = [3, 2, 1].first(where: { Self.columns * $0 + 2 <= gridWidth }) else {
            return nil
        }
        let width = Self.columns * swatchWidth + 2
        let height = min(Self.columns + 2, gridHeight)
        guard height >= 3 else { return nil }
        let box = CellRect(
            x: (gridWidth - width) / 2, y: (gridHeight - height) / 2, width: width, height: height)
        return (box, swatchWidth)
    }

    /// Paints the box over whatever the grid holds.
    public func paint(into grid: inout CellGrid) {
        guard let (box, swatchWidth) = frame(gridWidth: grid.width, gridHeight: grid.height) else { return }
        let (left, top, right, bottom) = (box.x, box.y, box.maxX - 1, box.maxY - 1)
        let rule = String(repeating: Character(glyphs.horizontal), count: box.width - 2)
        grid.put(String(glyphs.topLeft) + rule + String(glyphs.topRight), x: left, y: top)
        grid.put(String(glyphs.bottomLeft) + rule + String(glyphs.bottomRight), x: left, y: bottom)
        for y in (top + 1)..<bottom {
            grid[left, y] = Cell(glyphs.vertical)
            grid[right, y] = Cell(glyphs.vertical)
        }
        let title = " colour \(highlighted)\(highlighted == current ? " (current)" : "") "
        if title.terminalColumns <= box.width - 4 { grid.put(title, x: left + 2, y: top, attributes: .bold) }
        let footer = glyphs.isASCII ? " Enter picks, Esc closes " : " Enter picks · Esc closes "
        if footer.terminalColumns <= box.width - 4 {
            grid.put(footer, x: right - 1 - footer.terminalColumns, y: bottom)
        }
        for index in 0..<256 {
            let colour = UInt8(index)
            let row = index / Self.columns
            let y = top + 1 + row
            guard y < bottom else { break }
            let x = left + 1 + (index % Self.columns) * swatchWidth
            let ink = Self.contrastingInk(on: colour)
            var text = [Unicode.Scalar](repeating: " ", count: swatchWidth)
            if colour == current { text[(swatchWidth - 1) / 2] = glyphs.isASCII ? "*" : "●" }
            if colour == highlighted {
                text[0] = "["
                if swatchWidth > 1 { text[swatchWidth - 1] = "]" }
            }
            for (offset, glyph) in text.enumerated() {
                grid[x + offset, y] = Cell(glyph, foreground: ink, background: colour, attributes: .bold)
            }
        }
    }

    /// Keys: arrows (and h j k l) move the highlight, wrapping from row to row; Enter or space
    /// picks; Esc, `C` and `q` close; other keys do nothing behind the box.
    public mutating func handle(_ event: InputEvent) -> Action? {
        switch event {
        case .command(.move(let direction)):
            let step =
                switch direction {
                case .left: -1
                case .right: 1
                case .up: -Self.columns
                case .down: Self.columns
                }
            highlighted = UInt8((Int(highlighted) + step + 256) % 256)
            return nil
        case .enter, .command(.togglePen): return .pick(highlighted)
        case .command(.escape), .command(.openPalette), .command(.quit): return .close
        default: return nil
        }
    }

    /// The mouse: a press on a swatch picks it, a press outside the box closes it, and nothing
    /// reaches the canvas.
    public mutating func handle(_ mouse: MouseEvent, gridWidth: Int, gridHeight: Int) -> Action? {
        guard mouse.kind == .press,
            let (box, swatchWidth) = frame(gridWidth: gridWidth, gridHeight: gridHeight)
        else { return nil }
        guard (box.x..<box.maxX).contains(mouse.x), (box.y..<box.maxY).contains(mouse.y) else {
            return .close
        }
        let column = (mouse.x - box.x - 1) / swatchWidth
        let row = mouse.y - box.y - 1
        guard mouse.x > box.x, mouse.x < box.maxX - 1, (0..<Self.columns).contains(column),
            row >= 0, row < min(Self.columns, box.height - 2)
        else { return nil }
        let colour = UInt8(row * Self.columns + column)
        highlighted = colour
        return .pick(colour)
    }

    /// Black or white, whichever reads better on a swatch (by the colour's luma).
    static func contrastingInk(on colour: UInt8) -> UInt8 {
        let rgb = XtermPalette.rgb(colour)
        let luma = 299 * Int(rgb.red) + 587 * Int(rgb.green) + 114 * Int(rgb.blue)
        return luma > 128_000 ? 16 : 231
    }
}

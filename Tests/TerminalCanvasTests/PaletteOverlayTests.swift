import StrokeKit
import TerminalCanvas
import Testing

@Suite struct PaletteOverlayTests {
    @Test func allColoursAreSwatchesAndTheCurrentOneIsMarked() throws {
        let overlay = PaletteOverlay(current: 196)
        var grid = CellGrid(width: 60, height: 20)
        overlay.paint(into: &grid)
        let (box, swatchWidth) = try #require(overlay.frame(gridWidth: 60, gridHeight: 20))
        #expect(swatchWidth == 3)
        #expect(box == CellRect(x: 5, y: 1, width: 50, height: 18))
        for index in 0..<256 {
            let x = box.x + 1 + (index % 16) * 3
            let y = box.y + 1 + index / 16
            #expect(grid[x, y].background == UInt8(index))
            #expect(grid[x + 2, y].background == UInt8(index))
        }
        // 196 is row 12, column 4: marked and highlighted.
        let (x, y) = (box.x + 1 + 4 * 3, box.y + 1 + 12)
        #expect(
            String(String.UnicodeScalarView([grid[x, y].glyph, grid[x + 1, y].glyph, grid[x + 2, y].glyph]))
                == "[●]")
        #expect(grid.rows[box.y].contains("colour 196 (current)"))
        #expect(grid.rows[box.maxY - 1].contains("Enter picks"))
    }

    @Test func keysMoveTheHighlightAndPick() {
        var overlay = PaletteOverlay(current: 15)
        #expect(overlay.handle(.command(.move(.right))) == nil)
        #expect(overlay.highlighted == 16)
        _ = overlay.handle(.command(.move(.down)))
        #expect(overlay.highlighted == 32)
        _ = overlay.handle(.command(.move(.up)))
        _ = overlay.handle(.command(.move(.up)))
        #expect(overlay.highlighted == 0)
        // Wrapping round: left of 0 is 255.
        _ = overlay.handle(.command(.move(.left)))
        #expect(overlay.highlighted == 255)
        #expect(overlay.handle(.enter) == .pick(255))
        #expect(overlay.handle(.command(.togglePen)) == .pick(255))
        #expect(overlay.handle(.command(.escape)) == .close)
        #expect(overlay.handle(.command(.openPalette)) == .close)
        #expect(overlay.handle(.command(.undo)) == nil)
    }

    @Test func aClickOnASwatchPicksItAndOneOutsideCloses() throws {
        var overlay = PaletteOverlay(current: 15)
        let (box, _) = try #require(overlay.frame(gridWidth: 60, gridHeight: 20))
        let swatch = MouseEvent(.press, x: box.x + 1 + 5 * 3 + 2, y: box.y + 1 + 2)
        #expect(overlay.handle(swatch, gridWidth: 60, gridHeight: 20) == .pick(37))
        #expect(
            overlay.handle(MouseEvent(.press, x: box.x, y: box.y + 3), gridWidth: 60, gridHeight: 20) == nil)
        #expect(overlay.handle(MouseEvent(.press, x: 1, y: 1), gridWidth: 60, gridHeight: 20) == .close)
        #expect(overlay.handle(MouseEvent(.release, x: 1, y: 1), gridWidth: 60, gridHeight: 20) == nil)
    }

    @Test func aNarrowScreenGetsNarrowerSwatches() throws {
        let overlay = PaletteOverlay(current: 0, glyphs: .ascii)
        #expect(try #require(overlay.frame(gridWidth: 40, gridHeight: 24)).swatchWidth == 2)
        #expect(try #require(overlay.frame(gridWidth: 20, gridHeight: 24)).swatchWidth == 1)
        #expect(overlay.frame(gridWidth: 17, gridHeight: 24) == nil)
        var grid = CellGrid(width: 40, height: 24)
        overlay.paint(into: &grid)
        #expect(grid.rows.joined().contains("Enter picks, Esc closes"))
    }
}

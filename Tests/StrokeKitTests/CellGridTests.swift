import StrokeKit
import TestSupport
import Testing

@Suite struct CellGridTests {
    /// Every wide glyph has its continuation right after it, and every continuation follows one.
    private func pairsAreWhole(_ grid: CellGrid) -> Bool {
        for y in 0..<grid.height {
            for x in 0..<grid.width {
                let cell = grid[x, y]
                if cell.isWide, !(x + 1 < grid.width && grid[x + 1, y].isContinuation) { return false }
                if cell.isContinuation, !(x > 0 && grid[x - 1, y].isWide) { return false }
            }
        }
        return true
    }

    @Test func aWideGlyphFillsTwoCellsAndShowsOnceInTheText() {
        var grid = CellGrid(width: 12, height: 1)
        let end = grid.put("☕ 設計", x: 1, y: 0, foreground: 33)
        #expect(end == 8)
        #expect(grid[1, 0].glyph == "☕")
        #expect(grid[2, 0].isContinuation)
        #expect(grid[2, 0].foreground == 33)
        #expect(grid[3, 0].glyph == " ")
        #expect(grid[4, 0].glyph == "設")
        #expect(grid[6, 0].glyph == "計")
        #expect(grid.text == " ☕ 設計")
        grid.put("|", x: 8, y: 0)
        #expect(grid.text == " ☕ 設計|")
        #expect(pairsAreWhole(grid))
    }

    @Test func aWideGlyphThatWouldStraddleAnEdgeBecomesASpace() {
        var grid = CellGrid(width: 5, height: 1, filling: Cell("."))
        grid.put("ab設", x: 2, y: 0)
        #expect(grid.rows[0] == "..ab")
        #expect(grid[4, 0] == Cell(" "))
        grid.put("設x", x: -1, y: 0)  // the left half is off the grid
        #expect(grid.rows[0] == " xab")
        #expect(pairsAreWhole(grid))
    }

    @Test func writingOverEitherHalfOfAWideGlyphBlanksTheOtherHalf() {
        var grid = CellGrid(width: 6, height: 1)
        grid.put("設計", x: 0, y: 0, attributes: .reverse)
        grid.put("a", x: 0, y: 0)
        #expect(grid.text == "a 計")
        #expect(grid[1, 0] == Cell(" ", attributes: .reverse))
        grid[3, 0] = Cell("b")
        #expect(grid.text == "a  b")
        #expect(pairsAreWhole(grid))
    }

    @Test func aWideGlyphOverTheRightHalfOfAnotherRemovesItAndItsNeighbour() {
        var grid = CellGrid(width: 6, height: 1)
        grid.put("設計", x: 0, y: 0)
        grid.put("ノ", x: 1, y: 0)
        #expect(grid.text == " ノ")
        #expect(grid[3, 0] == Cell(" "))
        grid.put("ー", x: 2, y: 0)
        #expect(grid.text == "  ー")
        #expect(pairsAreWhole(grid))
    }

    @Test func aGridCopiedCellByCellIsTheSameAndAStrayContinuationIsABlank() {
        var source = CellGrid(width: 8, height: 2)
        source.put("☕ 設計図", x: 0, y: 0, foreground: 9)
        var forward = CellGrid(width: 8, height: 2)
        var backward = CellGrid(width: 8, height: 2)
        for y in 0..<2 {
            for x in 0..<8 { forward[x, y] = source[x, y] }
            for x in (0..<8).reversed() { backward[x, y] = source[x, y] }
        }
        #expect(forward == source)
        #expect(backward == source)
        var grid = CellGrid(width: 4, height: 1)
        grid[2, 0] = source[1, 0]
        #expect(grid[2, 0] == Cell(" ", foreground: 9))
    }

    @Test func marksAreLeftOutAndTheReservedGlyphIsNeverWrittenFromText() {
        var grid = CellGrid(width: 8, height: 1)
        #expect(grid.put("e\u{301}\u{200D}x\u{FFFF}", x: 0, y: 0) == 3)
        #expect(grid.text == "ex\u{FFFD}")
        #expect(CellGrid(width: 3, height: 1, filling: Cell("設")).text == "")
    }

    @Test func randomWritesNeverLeaveHalfAGlyph() {
        var random = SplitMix64(seed: 0x5EED_C0DE)
        let glyphs: [Unicode.Scalar] = ["a", " ", "│", "☕", "設", "ノ", "🎨", Cell.continuationGlyph]
        var grid = CellGrid(width: 9, height: 3)
        for step in 0..<2_000 {
            let x = Int.random(in: -1...9, using: &random)
            let y = Int.random(in: 0..<3, using: &random)
            let glyph = glyphs.randomElement(using: &random) ?? "a"
            if Bool.random(using: &random) {
                grid.put(String(glyph) + String(glyphs.randomElement(using: &random) ?? "b"), x: x, y: y)
            } else {
                grid[x, y] = Cell(glyph)
            }
            guard pairsAreWhole(grid) else {
                Issue.record("half a glyph after step \(step):\n\(grid.text)")
                return
            }
        }
        #expect(grid.rows.allSatisfy { $0.terminalColumns <= 9 })
    }
}

import StrokeKit
import StrokeKitTestSupport
import Testing

/// Markers on the cell grid: an underlay that colours the background and never hides pen ink.
@Suite struct RasterMarkerTests {
    static let yellow: UInt8 = 226
    static let red: UInt8 = 196
    static let blue: UInt8 = 33

    /// A one-cell marker along row 1, cells 1 to 6.
    static func band(key: StrokeKey, colour: UInt8 = yellow) -> StrokeGroup {
        Fixtures.group([
            Fixtures.stroke([(1.5, 1.5), (6.5, 1.5)], key: key, width: 1, colour: colour, tool: .marker)
        ])
    }

    /// A thin pen line in the top half of row 1, cells 2 to 4.
    static func line(key: StrokeKey, colour: UInt8 = red) -> StrokeGroup {
        Fixtures.group([Fixtures.stroke([(2.5, 1.25), (4.5, 1.25)], key: key, colour: colour)])
    }

    func render(_ groups: [StrokeGroup], _ mode: GlyphMode = .block) -> CellGrid {
        Raster.render(groups, origin: (0, 0), width: 9, height: 3, mode: mode)
    }

    @Test func aMarkerAloneIsAShadeInItsColourOnItsColour() {
        let grid = render([Self.band(key: Fixtures.key(1000))])
        #expect(grid.rows == ["", " ░░░░░░", ""])
        for x in 1...6 {
            #expect(grid[x, 1] == Cell("░", foreground: Self.yellow, background: Self.yellow))
        }
        #expect(grid[0, 1] == .blank && grid[7, 1] == .blank)
    }

    @Test(arguments: [true, false])
    func penInkOverAMarkerKeepsItsGlyphOnTheMarkersBackground(markerIsOlder: Bool) {
        let (older, newer) = (Fixtures.key(1000), Fixtures.key(2000))
        let marker = Self.band(key: markerIsOlder ? older : newer)
        let pen = Self.line(key: markerIsOlder ? newer : older)
        let grid = render([marker, pen])
        #expect(grid.rows == ["", " ░▀▀▀░░", ""])
        for x in 2...4 {
            #expect(grid[x, 1] == Cell("▀", foreground: Self.red, background: Self.yellow))
        }
        #expect(grid[1, 1].background == Self.yellow && grid[5, 1].background == Self.yellow)
    }

    @Test func theTopmostMarkerGivesTheBackground() {
        let lower = Self.band(key: Fixtures.key(1000), colour: Self.yellow)
        let upper = Fixtures.group([
            Fixtures.stroke(
                [(4.5, 1.5), (8.5, 1.5)], key: Fixtures.key(3000), width: 1, colour: Self.blue, tool: .marker)
        ])
        let pen = Self.line(key: Fixtures.key(2000))
        for groups in [[lower, upper, pen], [pen, upper, lower]] {
            let grid = render(groups)
            #expect(grid.rows == ["", " ░▀▀▀░░░░", ""])
            #expect((1...3).map { grid[$0, 1].background } == [Self.yellow, Self.yellow, Self.yellow])
            #expect((4...8).map { grid[$0, 1].background } == Array(repeating: Self.blue, count: 5))
            #expect(grid[4, 1] == Cell("▀", foreground: Self.red, background: Self.blue))
            #expect(grid[6, 1] == Cell("░", foreground: Self.blue, background: Self.blue))
        }
    }

    @Test func penInkInTheMarkersOwnColourKeepsTheTerminalsBackground() {
        let pen = Self.line(key: Fixtures.key(2000), colour: Self.yellow)
        let grid = render([Self.band(key: Fixtures.key(1000)), pen])
        // On a yellow background, yellow ink would vanish: it shows as on a plain canvas.
        #expect(grid[3, 1] == Cell("▀", foreground: Self.yellow, background: nil))
        #expect(grid[5, 1] == Cell("░", foreground: Self.yellow, background: Self.yellow))
    }

    @Test func brailleUsesTheSameCellRule() {
        let grid = render([Self.line(key: Fixtures.key(2000)), Self.band(key: Fixtures.key(1000))], .braille)
        #expect(grid.rows == ["", " ░⠐⠒⠒░░", ""])
        #expect(grid[3, 1] == Cell("⠒", foreground: Self.red, background: Self.yellow))
        #expect(grid[6, 1] == Cell("░", foreground: Self.yellow, background: Self.yellow))
    }

    @Test func asciiShowsAMarkerAsAColonThePenNeverUses() {
        let grid = render([Self.band(key: Fixtures.key(1000)), Self.line(key: Fixtures.key(2000))], .ascii)
        #expect(grid.rows == ["", " :'''::", ""])
        #expect(grid[2, 1] == Cell("'", foreground: Self.red, background: Self.yellow))
        #expect(grid[1, 1] == Cell(":", foreground: Self.yellow, background: Self.yellow))
        #expect(!["'", ".", "#", "+"].contains(GlyphMode.ascii.markerGlyph))
    }

    @Test func aMarkerIsInkForTheExtentAndTheStrokeEraser() {
        let marker = Self.band(key: Fixtures.key(3000))
        let pen = Self.line(key: Fixtures.key(2000))
        #expect(Raster.extent(of: [marker]) == CellRect(x: 1, y: 1, width: 6, height: 1))
        for mode in GlyphMode.allCases {
            // The pen is seen on top even though the marker's key is later; beside it, the marker.
            #expect(Raster.topmostKey(in: [marker, pen], atCellX: 3, y: 1, mode: mode) == pen.key)
            #expect(Raster.topmostKey(in: [marker, pen], atCellX: 6, y: 1, mode: mode) == marker.key)
            #expect(Raster.topmostKey(in: [marker, pen], atCellX: 7, y: 1, mode: mode) == nil)
        }
    }

    @Test func anErasedPartOfAMarkerLeavesNoHighlight() {
        var stroke = Fixtures.stroke([(1.5, 1.5), (6.5, 1.5)], width: 1, colour: Self.yellow, tool: .marker)
        stroke.mask = Fixtures.mask(radius: 0.75, [(3.5, 1.5)])
        let grid = render([Fixtures.group([stroke])])
        #expect(grid.rows == ["", " ░░ ░░░", ""])
        #expect(grid[3, 1] == .blank)
    }
}

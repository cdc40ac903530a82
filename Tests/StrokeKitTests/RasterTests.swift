import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

@Suite struct RasterTests {
    let diagonal = Fixtures.group([Fixtures.stroke([(0.5, 0.5), (7.5, 3.5)])])
    let wide = Fixtures.group([Fixtures.stroke([(2, 2), (8, 2)], width: 2)])

    func draw(_ groups: [StrokeGroup], _ mode: GlyphMode, width: Int = 10, height: Int = 4) -> [String] {
        Raster.render(groups, origin: (0, 0), width: width, height: height, mode: mode).rows
    }

    @Test func horizontalLineInEveryMode() {
        let line = [Fixtures.group([Fixtures.stroke([(1, 1.25), (8, 1.25)])])]
        #expect(draw(line, .block, height: 2) == ["", " ▀▀▀▀▀▀▀▀"])
        #expect(draw(line, .braille, height: 2) == ["", " ⠒⠒⠒⠒⠒⠒⠒⠂"])
        #expect(draw(line, .ascii, height: 2) == ["", " ''''''''"])
    }

    @Test func diagonalLineInBlockMode() {
        #expect(draw([diagonal], .block) == ["▄▄", " ▀█▄", "    ▀█▄", "      ▀█"])
    }

    @Test func diagonalLineInBrailleMode() {
        #expect(draw([diagonal], .braille) == ["⠠⣄", " ⠈⠳⣄", "    ⠙⢦⡀", "      ⠙⠢"])
    }

    @Test func diagonalLineInASCIIMode() {
        #expect(draw([diagonal], .ascii) == ["..", " '#.", "    '#.", "      '#"])
    }

    @Test func wideStrokeFillsItsWidth() {
        #expect(draw([wide], .block) == ["", " ████████", " ████████", ""])
        #expect(draw([wide], .braille) == ["", " ⣾⣿⣿⣿⣿⣿⣿⣷", " ⢿⣿⣿⣿⣿⣿⣿⡿", ""])
    }

    /// Widths under a mode's thinnest line draw exactly as that line: in blocks ¼ and ½ look the
    /// same in every direction (the status bar says `¼→½` there); in braille they differ.
    @Test func widthsUnderTheThinnestLineDrawAlike() {
        let paths: [[(Double, Double)]] = [
            [(0.5, 0.5), (7.5, 3.5)], [(1, 1.5), (8, 1.5)], [(3.5, 0), (3.5, 3.5)], [(0.5, 3.5), (9.5, 0.2)],
            [(2.3, 2.7)],
        ]
        func ink(_ width: Double, _ mode: GlyphMode) -> [[String]] {
            paths.map { draw([Fixtures.group([Fixtures.stroke($0, width: width)])], mode) }
        }
        #expect(GlyphMode.block.thinnestLine == 0.5 && GlyphMode.ascii.thinnestLine == 0.5)
        #expect(GlyphMode.braille.thinnestLine == 0.25)
        #expect(ink(0.25, .block) == ink(0.5, .block))
        #expect(ink(0.25, .ascii) == ink(0.5, .ascii))
        #expect(ink(0.5, .block) != ink(1, .block))
        #expect(ink(0.25, .braille) != ink(0.5, .braille))
    }

    @Test func aSinglePointIsADot() {
        let dot = [Fixtures.group([Fixtures.stroke([(3.3, 1.6)])])]
        #expect(draw(dot, .braille) == ["", "   ⠄", "", ""])
        #expect(draw(dot, .block) == ["", "   ▄", "", ""])
    }

    @Test func aMaskedPartIsNotDrawn() {
        var stroke = Fixtures.stroke([(0, 1.25), (9, 1.25)])
        stroke.mask = Fixtures.mask(radius: 1, [(4.5, 1.25)])
        // Samples whose centres are within the radius (3.5, 4.5 and 5.5 here) are hidden.
        #expect(draw([Fixtures.group([stroke])], .block, height: 2) == ["", "▀▀▀   ▀▀▀▀"])
    }

    @Test func theTransformMovesTheStrokeAndItsMask() {
        var stroke = Fixtures.stroke([(0, 1.25), (9, 1.25)])
        stroke.mask = Fixtures.mask(radius: 1, [(4.5, 1.25)])
        stroke.transform = StrokeTransform(dx: 0, dy: 2)
        #expect(draw([Fixtures.group([stroke])], .block) == ["", "", "", "▀▀▀   ▀▀▀▀"])
    }

    @Test func aLineBetweenFarApartPointsHasNoGaps() {
        let long = [Fixtures.group([Fixtures.stroke([(0.5, 0.5), (299.5, 37.5)])])]
        for mode in GlyphMode.allCases {
            let grid = Raster.render(long, origin: (0, 0), width: 300, height: 38, mode: mode)
            for x in 0..<300 {
                #expect((0..<38).contains { grid[x, $0] != .blank }, "column \(x) is empty in \(mode)")
            }
            for y in 0..<38 {
                #expect((0..<300).contains { grid[$0, y] != .blank }, "row \(y) is empty in \(mode)")
            }
        }
        let steep = [Fixtures.group([Fixtures.stroke([(0.5, 0.5), (3.5, 99.5)])])]
        let grid = Raster.render(steep, origin: (0, 0), width: 4, height: 100, mode: .braille)
        for y in 0..<100 { #expect((0..<4).contains { grid[$0, y] != .blank }) }
    }

    @Test func laterKeysAreDrawnOnTopAndColourTheCell() {
        let red = Fixtures.group([Fixtures.stroke([(0, 0.5), (4, 0.5)], key: Fixtures.key(2), colour: 196)])
        let blue = Fixtures.group([Fixtures.stroke([(2, 0.5), (6, 0.5)], key: Fixtures.key(1), colour: 21)])
        // Given in any order, drawn in key order: red (the later key) wins where they overlap.
        for groups in [[red, blue], [blue, red]] {
            let grid = Raster.render(groups, origin: (0, 0), width: 7, height: 1, mode: .block)
            #expect((0..<7).map { grid[$0, 0].foreground } == [196, 196, 196, 196, 196, 21, 21])
        }
    }

    @Test func theTopmostKeyUnderACellIsTheLatestVisibleGroup() {
        let under = Fixtures.group([Fixtures.stroke([(0, 0.5), (4, 0.5)], key: Fixtures.key(1))])
        var hole = Fixtures.stroke([(2, 0.5), (6, 0.5)], key: Fixtures.key(2))
        hole.mask = Fixtures.mask(radius: 0.5, [(3.5, 0.5)])
        let over = Fixtures.group([hole])
        let keys = (0..<8).map { Raster.topmostKey(in: [over, under], atCellX: $0, y: 0, mode: .block) }
        #expect(keys == [under.key, under.key, over.key, under.key, over.key, over.key, over.key, nil])
    }

    @Test func theViewportPansOverABigDrawing() {
        let far = [Fixtures.group([Fixtures.stroke([(100, 50.25), (104, 50.25)])])]
        #expect(draw(far, .block).allSatisfy { $0.isEmpty })
        let panned = Raster.render(far, viewport: Viewport(x: 98, y: 49, width: 8, height: 2), mode: .block)
        #expect(panned.rows == ["", "  ▀▀▀▀▀"])
        let negative = [Fixtures.group([Fixtures.stroke([(-3, -0.75), (-1, -0.75)])])]
        #expect(Raster.render(negative, origin: (-4, -1), width: 4, height: 1, mode: .block).rows == [" ▀▀▀"])
    }

    @Test func anEmptyViewportIsAnEmptyGrid() {
        let grid = Raster.render([wide], origin: (0, 0), width: 0, height: 5, mode: .braille)
        #expect(grid.width == 0 && grid.cells.isEmpty)
    }

    @Test func extentIsTheBoundingBoxOfTheVisibleCells() {
        #expect(Raster.extent(of: []) == nil)
        #expect(Raster.extent(of: [wide]) == CellRect(x: 1, y: 1, width: 8, height: 2))
        let both = Raster.extent(of: [wide, diagonal], mode: .braille)
        #expect(both == CellRect(x: 0, y: 0, width: 9, height: 4))
        #expect(both?.maxX == 9)
        var hidden = Fixtures.stroke([(1, 1)])
        hidden.mask = Fixtures.mask(radius: 2, [(1, 1)])
        #expect(Raster.extent(of: [Fixtures.group([hidden])]) == nil)
    }

    @Test func extentOfAVeryLongWideStrokeFollowsItsOutline() {
        let long = [Fixtures.group([Fixtures.stroke([(0, 0), (100_000, 0)], width: 64)])]
        #expect(Raster.extent(of: long) == CellRect(x: -32, y: -32, width: 100_064, height: 64))
    }

    @Test func renderingAtTheExtentShowsEverything() throws {
        var generator = SplitMix64(seed: 12)
        let groups = (0..<5).map { _ in Fixtures.randomGroup(using: &generator) }
            .map { group in
                Fixtures.group(
                    group.pieces.map { piece in
                        Fixtures.stroke(
                            piece.path.prefix(3).map {
                                (
                                    $0.point.x.truncatingRemainder(dividingBy: 40),
                                    $0.point.y.truncatingRemainder(dividingBy: 20)
                                )
                            },
                            key: piece.key, width: 1)
                    })
            }
        let extent = try #require(Raster.extent(of: groups))
        let inside = Raster.render(
            groups, viewport: Viewport(x: extent.x, y: extent.y, width: extent.width, height: extent.height),
            mode: .block)
        let around = Raster.render(
            groups,
            viewport: Viewport(
                x: extent.x - 2, y: extent.y - 2, width: extent.width + 4, height: extent.height + 4),
            mode: .block)
        let countInside = inside.cells.filter { $0 != .blank }.count
        #expect(countInside == around.cells.filter { $0 != .blank }.count)
        #expect(inside.rows.first?.isEmpty == false)
        #expect(inside.rows.last?.isEmpty == false)
    }
}

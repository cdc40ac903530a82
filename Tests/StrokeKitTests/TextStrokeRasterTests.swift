import StrokeKit
import StrokeKitTestSupport
import Testing

/// Text on the cell grid: placement, wide characters, z-order with pens, the mask eraser, the
/// extent and the exports.
@Suite struct TextStrokeRasterTests {
    func render(_ strokes: [Stroke], width: Int = 12, height: Int = 3, mode: GlyphMode = .block) -> String {
        Raster.render(
            strokes.map { Fixtures.group([$0]) }, origin: (0, 0), width: width, height: height, mode: mode
        ).text
    }

    @Test func textSitsInTheCellsFromItsOrigin() {
        let text = Fixtures.text("hi\nyou", at: (2, 1), key: Fixtures.key(1))
        #expect(render([text]) == "\n  hi\n  you")
        #expect(render([text], mode: .braille) == "\n  hi\n  you")
    }

    @Test func wideCharactersTakeTwoCells() {
        let text = Fixtures.text("a世b", at: (0, 0))
        let grid = Raster.render([Fixtures.group([text])], origin: (0, 0), width: 6, height: 1, mode: .block)
        #expect(grid[0, 0].glyph == "a")
        #expect(grid[1, 0].glyph == "世")
        #expect(grid[2, 0].isContinuation)
        #expect(grid[3, 0].glyph == "b")
        #expect(grid.text == "a世b")
        // Cut by the viewport's right edge, the wide glyph shows as a space.
        let cut = Raster.render([Fixtures.group([text])], origin: (0, 0), width: 2, height: 1, mode: .block)
        #expect(cut.rows == ["a"])
        #expect(!cut[1, 0].isWide)
    }

    @Test func withoutUTF8CharactersOutsideASCIIShowAsQuestionMarks() {
        #expect(render([Fixtures.text("é世", at: (0, 0))], height: 1, mode: .ascii) == "???")
    }

    @Test func theLaterOfTextAndPenInkIsOnTop() {
        let pen = Fixtures.stroke([(0.5, 0.5), (4.5, 0.5)], key: Fixtures.key(1), width: 1)
        let textAbove = Fixtures.text("ab", at: (1, 0), key: Fixtures.key(2))
        #expect(render([pen, textAbove], height: 1) == "█ab██")
        let penAbove = Fixtures.stroke([(0.5, 0.5), (4.5, 0.5)], key: Fixtures.key(3), width: 1)
        #expect(render([textAbove, penAbove], height: 1) == "█████")
    }

    @Test func theMaskEraserHidesTextCellByCell() {
        let text = Fixtures.text("hello", at: (0, 0))
        let group = Fixtures.group([text])
        let eraser = MaskEraser(brush: EraserBrush(radius: 0.25))
        let path = [CanvasPoint(x: 1.5, y: 0.5), CanvasPoint(x: 2.5, y: 0.5)]
        let passes = eraser.sweep(along: path, near: group)
        #expect(!passes.isEmpty)
        let erased = group.addingPasses(passes, toSweep: Fixtures.key(9))
        #expect(
            Raster.render([erased], origin: (0, 0), width: 6, height: 1, mode: .block).text == "h  lo")
        // Sweeping the rest hides it all: the group shows nothing, but is kept.
        let rest = eraser.sweep(
            along: [CanvasPoint(x: 0.5, y: 0.5), CanvasPoint(x: 4.5, y: 0.5)], near: erased)
        let gone = erased.addingPasses(rest, toSweep: Fixtures.key(10))
        #expect(gone.isErasedCompletely)
        #expect(StrokeGroupCodec.encode(gone) == StrokeGroupCodec.encode(group))
    }

    @Test func aSweepThatMissesTheTextAddsNothing() {
        let group = Fixtures.group([Fixtures.text("hello", at: (0, 0))])
        let eraser = MaskEraser(brush: EraserBrush(radius: 0.25))
        #expect(eraser.sweep(along: [CanvasPoint(x: 2.5, y: 3.5)], near: group).isEmpty)
    }

    @Test func halfOfAWideCharacterErasedHidesAllOfIt() {
        let group = Fixtures.group([Fixtures.text("世x", at: (0, 0))])
        let eraser = MaskEraser(brush: EraserBrush(radius: 0.25))
        let erased = group.addingPasses(
            eraser.sweep(along: [CanvasPoint(x: 1.5, y: 0.5)], near: group), toSweep: Fixtures.key(9))
        #expect(Raster.render([erased], origin: (0, 0), width: 4, height: 1, mode: .block).text == "  x")
    }

    @Test func theStrokeEraserPicksTextInItsCells() {
        let text = Fixtures.text("ab", at: (3, 1))
        let groups = [Fixtures.group([text])]
        #expect(Raster.topmostKey(in: groups, atCellX: 4, y: 1, mode: .block) == text.key)
        #expect(Raster.topmostKey(in: groups, atCellX: 5, y: 1, mode: .block) == nil)
    }

    @Test func theExtentHoldsTheText() {
        let groups = [Fixtures.group([Fixtures.text("ab\n世", at: (3, 1))])]
        #expect(Raster.extent(of: groups) == CellRect(x: 3, y: 1, width: 2, height: 2))
        var drawing = Drawing()
        drawing.insert(groups[0])
        #expect(drawing.groups(in: CellRect(x: 4, y: 2, width: 1, height: 1)).count == 1)
        #expect(drawing.groups(in: CellRect(x: 6, y: 1, width: 1, height: 1)).isEmpty)
    }

    @Test func aKindThisBuildDoesNotKnowShowsAPlaceholderAndIsNeverErased() throws {
        let group = try StrokeGroupCodec.decode(TextStrokeCodecTests.groupWithUnknownKind())
        #expect(Raster.render([group], origin: (0, 0), width: 4, height: 2, mode: .block).text == "A\n  ◇")
        #expect(Raster.render([group], origin: (0, 0), width: 4, height: 2, mode: .ascii).text == "A\n  ?")
        let eraser = MaskEraser(brush: EraserBrush(radius: 2))
        let erased = eraser.erase([group], along: [CanvasPoint(x: 2.5, y: 1.5)])
        #expect(erased.first?.base[1] == group.base[1])
        #expect(erased.first?.pieces.contains(group.base[1]) == true)
        #expect(Raster.topmostKey(in: [group], atCellX: 2, y: 1, mode: .block) == nil)
    }
}

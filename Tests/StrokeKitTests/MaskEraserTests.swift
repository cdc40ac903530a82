import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

@Suite struct MaskEraserTests {
    let eraser = MaskEraser(brush: EraserBrush(radius: 1))
    let line = Fixtures.group([Fixtures.stroke([(1, 1.5), (9, 1.5)])])

    @Test func erasingThroughTheMiddleSplitsAStrokeIntoTwoPiecesWithTheSameKey() throws {
        let result = eraser.erase([line], along: Fixtures.points([(5, -2), (5, 5)]))
        let group = try #require(result.first)
        #expect(result.count == 1)
        #expect(group.key == line.key)
        #expect(group.pieces.count == 2)
        #expect(group.pieces.allSatisfy { $0.key == line.key })
        #expect(group.pieces[0].path.map(\.point) == Fixtures.points([(1, 1.5), (4, 1.5)]))
        #expect(group.pieces[1].path.map(\.point) == Fixtures.points([(6, 1.5), (9, 1.5)]))
        // The cut ends carry interpolated times: 10 ms over 8 cells.
        #expect(group.pieces[0].path.map(\.timeOffsetMilliseconds) == [0, 4])
        #expect(group.pieces[1].path.map(\.timeOffsetMilliseconds) == [6, 10])
        #expect(group.fingerprint != line.fingerprint)
        let rendered = Raster.render(result, origin: (0, 0), width: 10, height: 3, mode: .braille).rows
        #expect(rendered == ["", " ⠤⠤⠤  ⠤⠤⠤⠄", ""])
    }

    @Test func grazingTheEdgeOfAWideStrokeMasksItWithoutCutting() throws {
        let wide = Fixtures.group([Fixtures.stroke([(2, 2), (8, 2)], width: 2)])
        let result = eraser.erase([wide], along: Fixtures.points([(0, 3.75), (10, 3.75)]))
        let group = try #require(result.first)
        #expect(group.pieces.count == 1)
        #expect(group.pieces[0].path == wide.pieces[0].path)
        #expect(!group.pieces[0].mask.isEmpty)
        #expect(group.fingerprint != wide.fingerprint)
        let before = Raster.render([wide], origin: (0, 0), width: 10, height: 3, mode: .braille).rows
        let after = Raster.render(result, origin: (0, 0), width: 10, height: 3, mode: .braille).rows
        #expect(before == ["", " ⣾⣿⣿⣿⣿⣿⣿⣷", " ⢿⣿⣿⣿⣿⣿⣿⡿"])
        #expect(after == ["", " ⣾⣿⣿⣿⣿⣿⣿⣷", " ⠿⠿⠿⠿⠿⠿⠿⠿"])
    }

    @Test func aSmallBrushThroughAWideStrokeMakesAHoleWithoutCutting() throws {
        let wide = Fixtures.group([Fixtures.stroke([(2, 2), (12, 2)], width: 4)])
        let small = MaskEraser(brush: EraserBrush(radius: 0.5))
        let result = small.erase([wide], along: Fixtures.points([(7, 2)]))
        let group = try #require(result.first)
        #expect(group.pieces.count == 1)
        #expect(group.pieces[0].mask.sweeps.count == 1)
    }

    @Test func aBrushAcrossAWideStrokeCutsIt() throws {
        let wide = Fixtures.group([Fixtures.stroke([(2, 4), (14, 4)], width: 2)])
        let result = eraser.erase([wide], along: Fixtures.points([(8, 0), (8, 8)]))
        let group = try #require(result.first)
        #expect(group.pieces.count == 2)
        #expect(group.pieces.map { $0.path.last?.point.x } == [7, 14])
        #expect(group.pieces.map { $0.path.first?.point.x } == [2, 9])
    }

    @Test func erasingAllOfAStrokeRemovesItsGroup() {
        let result = eraser.erase([line], along: Fixtures.points([(0, 1.5), (10, 1.5)]))
        #expect(result.isEmpty)
    }

    @Test func erasingAllOfAWideStrokeWithParallelSweepsRemovesIt() {
        let wide = Fixtures.group([Fixtures.stroke([(2, 4), (8, 4)], width: 3)])
        let scrubbed = [2.5, 3.5, 4.5, 5.5].reduce([wide]) { groups, y in
            eraser.erase(groups, along: Fixtures.points([(0, y), (10, y)]))
        }
        #expect(scrubbed.isEmpty)
    }

    @Test func erasingOnePieceKeepsTheOther() throws {
        let split = eraser.erase([line], along: Fixtures.points([(5, -2), (5, 5)]))
        let result = eraser.erase(split, along: Fixtures.points([(0, 1.5), (4.5, 1.5)]))
        let group = try #require(result.first)
        #expect(group.pieces.count == 1)
        #expect(group.pieces[0].path.first?.point.x == 6)
    }

    @Test func aBrushThatMissesLeavesTheGroupUntouched() {
        let result = eraser.erase([line], along: Fixtures.points([(0, 5), (10, 5)]))
        #expect(result == [line])
        #expect(result.first?.fingerprint == line.fingerprint)
        #expect(eraser.erase([line], along: []) == [line])
    }

    @Test func onlyTheGroupsTheBrushTouchesChange() {
        let other = Fixtures.group([Fixtures.stroke([(1, 8), (9, 8)], key: Fixtures.key(5))])
        let result = eraser.erase([line, other], along: Fixtures.points([(5, -2), (5, 4)]))
        #expect(result.count == 2)
        #expect(result[1] == other)
        #expect(result[0].pieces.count == 2)
    }

    @Test func aMovedStrokeIsErasedWhereItIsShown() throws {
        var stroke = Fixtures.stroke([(1, 1.5), (9, 1.5)])
        stroke.transform = StrokeTransform(dx: 0, dy: 10)
        let moved = Fixtures.group([stroke])
        #expect(eraser.erase([moved], along: Fixtures.points([(5, -2), (5, 5)])) == [moved])
        let group = try #require(eraser.erase([moved], along: Fixtures.points([(5, 8), (5, 15)])).first)
        #expect(group.pieces.count == 2)
        #expect(group.pieces[0].path.map(\.point) == Fixtures.points([(1, 1.5), (4, 1.5)]))
    }

    @Test func aDotUnderTheBrushIsRemoved() {
        let dot = Fixtures.group([Fixtures.stroke([(3, 3)])])
        #expect(eraser.erase([dot], along: Fixtures.points([(3.5, 3)])).isEmpty)
        let repeated = Fixtures.group([Fixtures.stroke([(3, 3), (3, 3), (3, 3)])])
        #expect(eraser.erase([repeated], along: Fixtures.points([(3.5, 3)])).isEmpty)
    }

    @Test func repeatedPointsInAPathDoNotConfuseTheCut() throws {
        let wobbly = Fixtures.group([Fixtures.stroke([(1, 1.5), (5, 1.5), (5, 1.5), (9, 1.5)])])
        let group = try #require(eraser.erase([wobbly], along: Fixtures.points([(5, -2), (5, 5)])).first)
        #expect(
            group.pieces.map { $0.path.map(\.point) } == [
                Fixtures.points([(1, 1.5), (4, 1.5)]), Fixtures.points([(6, 1.5), (9, 1.5)]),
            ])
    }

    /// Whatever is erased, what is left is drawn, keeps its key, and nothing shows inside a sweep.
    @Test(arguments: [UInt64(7), 8, 9])
    func seededRandomErasingLeavesOnlyVisibleInkOutsideTheBrush(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var groups = (0..<6).map { index in
            let points = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                (Double.random(in: 0...30, using: &generator), Double.random(in: 0...12, using: &generator))
            }
            return Fixtures.group([
                Fixtures.stroke(
                    points, key: Fixtures.key(Int64(index)),
                    width: Double.random(in: 0...3, using: &generator))
            ])
        }
        let keys = Set(groups.map(\.key))
        for _ in 0..<8 {
            let brush = MaskEraser(brush: EraserBrush(radius: Double.random(in: 0.25...2, using: &generator)))
            let path = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                CanvasPoint(
                    x: Double.random(in: 0...30, using: &generator),
                    y: Double.random(in: 0...12, using: &generator))
            }
            groups = brush.erase(groups, along: path)
            for group in groups {
                #expect(keys.contains(group.key))
                #expect(group.pieces.allSatisfy { $0.key == group.key })
            }
            for group in groups {
                #expect(Raster.extent(of: [group], mode: .braille) != nil)
            }
            // A dab right where the brush was is blank afterwards.
            let probe = path[0]
            let cellX = Int(probe.x.rounded(.down))
            let cellY = Int(probe.y.rounded(.down))
            if brush.brush.radius >= 1.5 {
                let grid = Raster.render(groups, origin: (cellX, cellY), width: 1, height: 1, mode: .braille)
                #expect(grid[0, 0] == .blank)
            }
        }
    }
}

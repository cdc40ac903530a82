import StrokeKit
import StrokeKitTestSupport
import Testing

@Suite struct StrokeGroupTests {
    @Test func groupingSortsGroupsByKeyAndKeepsPieceOrder() {
        let early = Fixtures.key(1_000)
        let late = Fixtures.key(2_000)
        let strokes = [
            Fixtures.stroke([(90, 0)], key: late), Fixtures.stroke([(10, 0)], key: early),
            Fixtures.stroke([(50, 0)], key: early),
        ]
        let groups = StrokeGroup.grouping(strokes)
        #expect(groups.map(\.key) == [early, late])
        #expect(groups[0].pieces.map { $0.path[0].point.x } == [10, 50])
        #expect(groups[1].pieces.map { $0.path[0].point.x } == [90])
    }

    @Test func unrelatedStrokesWithTheSameKeyShareOneGroup() {
        let strokes = [Fixtures.stroke([(10, 0)]), Fixtures.stroke([(90, 0)])]
        let groups = StrokeGroup.grouping(strokes)
        #expect(groups.count == 1)
        #expect(groups[0].pieces.count == 2)
    }

    @Test func aGroupCannotBeEmpty() {
        #expect(StrokeGroup(key: Fixtures.key(), pieces: []) == nil)
        #expect(StrokeGroup.grouping([]).isEmpty)
    }

    @Test func piecesTakeTheGroupsKey() throws {
        let other = Fixtures.key(5, peer: "zz")
        let group = try #require(StrokeGroup(key: other, pieces: [Fixtures.stroke([(1, 1)])]))
        #expect(group.pieces.allSatisfy { $0.key == other })
    }

    @Test func aStrokeNeedsAtLeastOnePoint() {
        let stroke = Stroke(
            key: Fixtures.key(), ink: Ink(tool: .pen, colour: 1), path: [], createdAtMilliseconds: 0)
        #expect(stroke == nil)
    }

    @Test func valuesEnterTheModelOnTheSixteenthCellGrid() {
        #expect(CanvasPoint(x: 1.03, y: -2.97).x == 1.0)
        #expect(CanvasPoint(x: 1.03, y: -2.97).y == -3.0)
        #expect(CanvasPoint(x: .nan, y: .infinity) == CanvasPoint(x: 0, y: FixedPoint.coordinateLimit))
        #expect(Ink(tool: .pen, colour: 1, width: 0).width == 1.0 / 16)
        #expect(Ink(tool: .pen, colour: 1, width: 1000).width == 64)
        var ink = Ink(tool: .marker, colour: 9)
        ink.width = 1000
        #expect(ink.width == 64)
        #expect(ink == Ink(tool: .marker, colour: 9, width: 64))
        #expect(EraserBrush(radius: 0.7).radius == 0.6875)
        #expect(StrokePoint(x: 0, y: 0, timeOffsetMilliseconds: -5).timeOffsetMilliseconds == 0)
    }
}

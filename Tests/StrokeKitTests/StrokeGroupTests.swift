import StrokeKit
import StrokeKitTestSupport
import TestSupport
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

    /// Ink and transforms keep whole grid units: every width in the range and every translation
    /// within the coordinate limit comes back exactly as it was snapped, set or made.
    @Test func inkAndTransformsKeepEveryGridValueExactly() {
        for units in 1...1_024 {
            let width = Double(units) / 16
            var ink = Ink(tool: .pen, colour: 3)
            ink.width = width + 0.01
            #expect(ink.width == width && Ink(tool: .pen, colour: 3, width: width).width == width)
        }
        var ink = Ink(tool: .pen, colour: 3)
        ink.width = .nan
        #expect(ink.width == 1.0 / 16)
        let limit = FixedPoint.coordinateLimit
        for (dx, dy) in [
            (0.0, 0.0), (limit, -limit), (-limit, limit), (1.03, -2.97), (-0.0, 1e300), (.nan, -1e300),
        ] {
            let transform = StrokeTransform(dx: dx, dy: dy)
            #expect(transform.dx == FixedPoint.quantize(dx) && transform.dy == FixedPoint.quantize(dy))
            #expect(transform.isIdentity == (transform.dx == 0 && transform.dy == 0))
        }
        #expect(StrokeTransform(dx: -0.01, dy: 0.02) == .identity)
    }
}

@Suite struct StrokeGroupKeyingTests {
    /// Pieces that carry the group's key already are kept as given; pieces with another key take
    /// it; either way every piece equals the one given but for its key, in the same order.
    @Test(arguments: 0..<30) func piecesAreKeptEqualAndKeyed(seed: UInt64) throws {
        var generator = SplitMix64(seed: 0x6E0_0000 + seed)
        let drawn = Fixtures.randomGroup(using: &generator)
        let other = Fixtures.randomGroup(using: &generator)
        let given = drawn.base.map { piece in
            var piece = piece
            if Bool.random(using: &generator) { piece.key = other.key }
            return piece
        }
        let keepsKeys = given.allSatisfy { $0.key == drawn.key }
        let group = try #require(StrokeGroup(key: drawn.key, base: given, sweeps: [:]))
        #expect(group.base.count == given.count)
        #expect(group.base.allSatisfy { $0.key == drawn.key })
        #expect(group.pieces.allSatisfy { $0.key == drawn.key })
        #expect(group.base == drawn.base)
        #expect(group.pieces == group.base)
        #expect(group == drawn)
        if keepsKeys { #expect(group.base == given) }
        for (kept, piece) in zip(group.base, given) {
            var rekeyed = piece
            rekeyed.key = drawn.key
            #expect(kept == rekeyed)
        }
        // Under the other key every piece takes that one.
        let moved = try #require(StrokeGroup(key: other.key, base: group.base, sweeps: drawn.sweeps))
        #expect(moved.base.allSatisfy { $0.key == other.key })
        #expect(moved.pieces.allSatisfy { $0.key == other.key })
    }
}

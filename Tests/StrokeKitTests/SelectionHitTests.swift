import StrokeKit
import StrokeKitTestSupport
import Testing

/// What a selection rectangle picks up, and moving and copying a group.
@Suite struct SelectionHitTests {
    let left = Fixtures.group([Fixtures.stroke([(1.5, 1.5), (4.5, 1.5)], key: Fixtures.key(1))])
    let right = Fixtures.group([Fixtures.stroke([(10.5, 5.5), (14.5, 5.5)], key: Fixtures.key(2))])

    @Test func aRectanglePicksTheGroupsWithInkInIt() {
        let groups = [left, right]
        let all = CellRect(x: 0, y: 0, width: 20, height: 10)
        #expect(Raster.keys(in: groups, touching: all, mode: .block) == [left.key, right.key])
        // Touching one cell of a stroke is enough.
        let corner = CellRect(x: 4, y: 1, width: 3, height: 3)
        #expect(Raster.keys(in: groups, touching: corner, mode: .block) == [left.key])
        // Just beside the ink, nothing.
        let beside = CellRect(x: 5, y: 0, width: 5, height: 5)
        #expect(Raster.keys(in: groups, touching: beside, mode: .block).isEmpty)
        #expect(
            Raster.keys(in: groups, touching: CellRect(x: 0, y: 0, width: 0, height: 5), mode: .block).isEmpty
        )
    }

    @Test func anErasedPartIsNotPickedButAMovedStrokeIsPickedWhereItIs() {
        let erased = left.settingSweep(Fixtures.mask(radius: 1, [(4.5, 1.5)]), for: Fixtures.key(9))
        let end = CellRect(x: 4, y: 1, width: 1, height: 1)
        #expect(Raster.keys(in: [erased], touching: end, mode: .block).isEmpty)
        let moved = left.translated(dx: 0, dy: 3)
        #expect(
            Raster.keys(in: [moved], touching: CellRect(x: 1, y: 1, width: 4, height: 1), mode: .block)
                .isEmpty)
        #expect(
            Raster.keys(in: [moved], touching: CellRect(x: 1, y: 4, width: 1, height: 1), mode: .block) == [
                left.key
            ])
    }

    @Test func translatingMovesEveryPieceAndKeepsTheSweeps() {
        let sweepKey = Fixtures.key(9)
        let erased = left.settingSweep(Fixtures.mask(radius: 1, [(1.5, 1.5)]), for: sweepKey)
        let moved = erased.translated(dx: 2, dy: 3).translated(dx: -1, dy: 0)
        #expect(moved.baseTransforms == [StrokeTransform(dx: 1, dy: 3)])
        #expect(moved.sweeps == erased.sweeps)
        #expect(moved.base[0].path == left.base[0].path)
        // The ink and its erased part both moved: the same picture one cell right and three down.
        let before = Raster.render([erased], origin: (0, 0), width: 8, height: 6, mode: .block).rows
        let after = Raster.render([moved], origin: (0, 0), width: 8, height: 6, mode: .block).rows
        #expect(before[1] == "  ▄▄▄")
        #expect(after == ["", "", "", "", "   ▄▄▄", ""])
        #expect(moved.settingBaseTransforms(erased.baseTransforms) == erased)
    }

    @Test func aCopyHasTheNewKeyAndLooksTheSame() {
        let erased = left.settingSweep(Fixtures.mask(radius: 1, [(1.5, 1.5)]), for: Fixtures.key(9))
        let copy = erased.copy(as: Fixtures.key(5))
        #expect(copy.key == Fixtures.key(5))
        #expect(copy.base.allSatisfy { $0.key == Fixtures.key(5) })
        #expect(copy.pieces.map(\.path) == erased.pieces.map(\.path))
        #expect(copy.sweeps == erased.sweeps)
    }
}

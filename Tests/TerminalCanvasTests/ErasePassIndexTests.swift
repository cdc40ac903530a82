import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

@testable import TerminalCanvas

/// The erase passes look only at the groups the drawing's spatial index lists under the brush;
/// what they do is what looking at every group does (seeded random drawings of pens and markers,
/// wide and thin, moved and not, erased before; random drags of every brush size).
@Suite struct ErasePassIndexTests {
    /// A random drawing of `count` groups over about 60x20 cells, some moved, some erased once.
    static func drawing(_ count: Int, using random: inout SplitMix64) -> Drawing {
        var groups: [StrokeGroup] = []
        for index in 0..<count {
            let key = CanvasFixtures.key(1_000_000 + Int64(index))
            let x = Double.random(in: 0..<60, using: &random)
            let y = Double.random(in: 0..<20, using: &random)
            var points: [(Double, Double)] = []
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let px = x + Double(Int.random(in: -16...16, using: &random)) / 4
                let py = y + Double(Int.random(in: -8...8, using: &random)) / 4
                points.append((px, py))
            }
            let transform =
                Int.random(in: 0..<3, using: &random) == 0
                ? StrokeTransform(
                    dx: Double(Int.random(in: -40...40, using: &random)) / 8,
                    dy: Double(Int.random(in: -20...20, using: &random)) / 8)
                : .identity
            let stroke = Fixtures.stroke(
                points, key: key, width: [0.25, 0.5, 1, 2, 3].randomElement(using: &random) ?? 1,
                colour: UInt8.random(in: 1...9, using: &random),
                tool: Bool.random(using: &random) ? .marker : .pen, transform: transform)
            var group = Fixtures.group([stroke])
            if Int.random(in: 0..<4, using: &random) == 0,
                let sweepKey = StrokeKey(creationMilliseconds: 2_000_000 + Int64(index), peerSuffix: "cccccc")
            {
                let eraser = MaskEraser(brush: EraserBrush(radius: 0.5))
                group = group.addingPasses(
                    eraser.sweep(along: [CanvasPoint(x: x, y: y)], near: group), toSweep: sweepKey)
            }
            groups.append(group)
        }
        return Drawing(groups: groups)
    }

    /// What a mask-eraser pass along `path` does when it looks at every group: each group the
    /// brush comes near gets the passes near it added to the sweep, unless that hides nothing.
    static func eraseEverywhere(
        along path: [CanvasPoint], brush: EraserBrush, sweepKey: SweepKey, in drawing: inout Drawing
    ) {
        let eraser = MaskEraser(brush: brush)
        for group in drawing.groups {
            let passes = eraser.sweep(along: path, near: group)
            guard !passes.isEmpty else { continue }
            let erased = group.addingPasses(passes, toSweep: sweepKey)
            if erased.pieces != group.pieces { drawing.setGroup(erased, for: group.key) }
        }
    }

    @Test(arguments: Array(UInt64(1)...16))
    func aMaskErasePassChangesWhatAScanOfEveryGroupChanges(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let original = Self.drawing(80, using: &random)
        for drag in 0..<12 {
            let brush = EraserBrush(radius: [0.5, 1, 1.5, 2.5].randomElement(using: &random) ?? 1)
            let sweepKey = try #require(
                StrokeKey(creationMilliseconds: 3_000_000 + Int64(drag), peerSuffix: "dddddd"))
            var cells = [
                CanvasCell(
                    x: Int.random(in: 0..<60, using: &random), y: Int.random(in: 0..<20, using: &random))
            ]
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let last = cells[cells.count - 1]
                cells.append(
                    CanvasCell(
                        x: last.x + Int.random(in: -3...3, using: &random),
                        y: last.y + Int.random(in: -2...2, using: &random)))
            }
            var indexed = original
            var pass = MaskErasePass(brush: brush, sweepKey: sweepKey, at: cells[0])
            _ = pass.start(in: &indexed)
            var scanned = original
            Self.eraseEverywhere(along: [cells[0].centre], brush: brush, sweepKey: sweepKey, in: &scanned)
            for (from, to) in zip(cells, cells.dropFirst()) where from != to {
                pass.sweep(to: to, in: &indexed)
                Self.eraseEverywhere(
                    along: [from.centre, to.centre], brush: brush, sweepKey: sweepKey, in: &scanned)
            }
            #expect(indexed == scanned, "seed \(seed) drag \(drag)")
            #expect(Set(pass.touchedKeys) == Set(scanned.keys.filter { scanned[$0] != original[$0] }))
        }
    }

    /// A text's cells run right of its origin: the mask eraser reaches its last characters too,
    /// not only those near the origin point the text is stored at.
    @Test func theMaskEraserReachesTheFarEndOfALongText() throws {
        let key = CanvasFixtures.key(1_000_000)
        let original = Drawing(groups: [Fixtures.group([Fixtures.text("hello world, long text", key: key)])])
        let sweepKey = try #require(StrokeKey(creationMilliseconds: 3_000_000, peerSuffix: "dddddd"))
        var indexed = original
        var pass = MaskErasePass(
            brush: EraserBrush(radius: 0.5), sweepKey: sweepKey, at: CanvasCell(x: 18, y: 0))
        _ = pass.start(in: &indexed)
        var scanned = original
        Self.eraseEverywhere(
            along: [CanvasCell(x: 18, y: 0).centre], brush: EraserBrush(radius: 0.5), sweepKey: sweepKey,
            in: &scanned)
        #expect(scanned != original, "a scan of every group erases there")
        #expect(indexed == scanned)
        #expect(pass.touchedKeys == [key])
    }

    @Test(arguments: [GlyphMode.block, .braille], Array(UInt64(1)...8))
    func aStrokeRemovalPassRemovesWhatAScanOfEveryGroupRemoves(mode: GlyphMode, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var indexed = Self.drawing(120, using: &random)
        var scanned = indexed
        var pass = StrokeRemovalPass(mode: mode, at: CanvasCell(x: 0, y: 0))
        _ = pass.start(in: &indexed)
        if let key = Raster.topmostKey(in: scanned.groups, atCellX: 0, y: 0, mode: mode) {
            scanned.removeGroup(for: key)
        }
        var last = CanvasCell(x: 0, y: 0)
        for _ in 0..<40 {
            let next = CanvasCell(
                x: Int.random(in: -2..<64, using: &random), y: Int.random(in: -2..<22, using: &random))
            pass.move(to: next, in: &indexed)
            for cell in CellLine.cells(from: last, to: next).dropFirst() {
                if let key = Raster.topmostKey(in: scanned.groups, atCellX: cell.x, y: cell.y, mode: mode) {
                    scanned.removeGroup(for: key)
                }
            }
            last = next
            #expect(indexed == scanned, "seed \(seed)")
        }
        #expect(indexed.count < 110, "seed \(seed): the drags removed groups")
    }
}

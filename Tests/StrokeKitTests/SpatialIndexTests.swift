import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

/// The spatial index finds exactly the groups whose bounds meet a rectangle, however groups
/// arrive, change and go, and its bounds hold every cell a glyph mode inks.
@Suite struct SpatialIndexTests {
    static func key(_ index: Int) -> StrokeKey { Fixtures.key(Fixtures.baseMilliseconds + Int64(index)) }

    /// A group of one stroke near (x, y): short, or (now and then) long enough to cross many
    /// tiles, or across the whole coordinate range (a wide group).
    static func group(_ index: Int, using random: inout SplitMix64) -> StrokeGroup {
        let x = Double.random(in: -60...200, using: &random)
        let y = Double.random(in: -30...100, using: &random)
        let reach: Double =
            switch Int.random(in: 0..<20, using: &random) {
            case 0: 1_000_000
            case 1, 2: 120
            default: 8
            }
        let points = (0..<Int.random(in: 1...5, using: &random)).map { _ in
            (
                x + Double.random(in: -reach...reach, using: &random),
                y + Double.random(in: -reach...reach, using: &random)
            )
        }
        return Fixtures.group([
            Fixtures.stroke(
                points, key: key(index), width: [0.25, 1, 3].randomElement(using: &random) ?? 1,
                colour: UInt8(index % 200), tool: Bool.random(using: &random) ? .marker : .pen)
        ])
    }

    /// What the index must answer: every key whose recorded bounds meet `rect`, sorted.
    static func expected(_ bounds: [StrokeKey: CellRect], in rect: CellRect) -> [StrokeKey] {
        bounds.filter { $0.value.intersects(rect) }.map(\.key).sorted()
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func queriesAgreeWithEveryBoundsAfterRandomChanges(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var index = SpatialIndex()
        var bounds: [StrokeKey: CellRect] = [:]
        for step in 0..<600 {
            let which = Int.random(in: 0..<80, using: &random)
            let key = Self.key(which)
            if Int.random(in: 0..<4, using: &random) == 0 {
                let before = index.update(key, to: nil)
                #expect(before.old == bounds[key] && before.new == nil)
                bounds[key] = nil
            } else {
                let group = Self.group(which, using: &random)
                let change = index.update(key, to: group)
                #expect(change.old == bounds[key])
                #expect(change.new == SpatialIndex.bounds(of: group))
                bounds[key] = change.new
            }
            #expect(index.count == bounds.count)
            let rect = CellRect(
                x: Int.random(in: -80...220, using: &random), y: Int.random(in: -40...110, using: &random),
                width: Int.random(in: 0...90, using: &random), height: Int.random(in: 0...40, using: &random))
            #expect(
                index.keys(in: rect) == Self.expected(bounds, in: rect),
                "seed \(seed) step \(step) \(rect) \(bounds.filter { $0.value.intersects(rect) })")
        }
        // A rectangle far larger than the drawing walks the tiles there are; same answer.
        let everything = CellRect(x: -2_000_000, y: -2_000_000, width: 4_000_000, height: 4_000_000)
        #expect(index.keys(in: everything) == bounds.keys.sorted())
    }

    /// Batches merged into the key order at once (the slices of a staged open: keys anywhere
    /// among those held, some held already, some twice in a batch) leave the index as adding
    /// the same groups one by one does: the same key order, the same answers, and each batch's
    /// added keys (sorted, first of a repeated key kept) with their bounds.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func batchesMergedIntoTheOrderEqualAddingOneByOne(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var merged = SpatialIndex()
        var oneByOne = SpatialIndex()
        for batch in 0..<40 {
            let size = [0, 1, 2, 30, 120].randomElement(using: &random) ?? 1
            let groups = (0..<size).map { _ in
                Self.group(Int.random(in: 0..<2_000, using: &random), using: &random)
            }
            var expectedKeys: [StrokeKey] = []
            var expectedRegions: [StrokeKey: CellRect] = [:]
            for group in groups where oneByOne.group(for: group.key) == nil {
                oneByOne.update(group.key, to: group)
                expectedKeys.append(group.key)
                expectedRegions[group.key] = SpatialIndex.bounds(of: group)
            }
            let added = merged.insertNew(groups)
            #expect(added.keys == expectedKeys.sorted(), "seed \(seed) batch \(batch)")
            #expect(
                added.regions == expectedKeys.sorted().compactMap { expectedRegions[$0] },
                "seed \(seed) batch \(batch)")
            #expect(merged.keys == oneByOne.keys, "seed \(seed) batch \(batch)")
            for key in oneByOne.keys { #expect(merged.group(for: key) == oneByOne.group(for: key)) }
            let rect = CellRect(
                x: Int.random(in: -80...220, using: &random), y: Int.random(in: -40...110, using: &random),
                width: Int.random(in: 0...90, using: &random), height: Int.random(in: 0...40, using: &random))
            #expect(merged.keys(in: rect) == oneByOne.keys(in: rect), "seed \(seed) batch \(batch) \(rect)")
            // Removals after a merge find the ranks right.
            if batch.isMultiple(of: 5), let key = oneByOne.keys.randomElement(using: &random) {
                merged.update(key, to: nil)
                oneByOne.update(key, to: nil)
            }
        }
        #expect(merged.count == oneByOne.count)
        #expect(merged.count > 500)
    }

    @Test func boundsHoldEveryInkedCellInEveryMode() {
        var random = SplitMix64(seed: 99)
        for _ in 0..<100 {
            let group = Fixtures.randomGroup(using: &random)
            guard let bounds = SpatialIndex.bounds(of: group) else {
                Issue.record("a group always has bounds")
                continue
            }
            // The exact extent of a stroke across the whole coordinate range takes too long.
            guard bounds.width <= 150, bounds.height <= 150 else { continue }
            for mode in GlyphMode.allCases {
                guard let extent = Raster.extent(of: [group], mode: mode) else { continue }
                #expect(bounds.union(extent) == bounds, "\(mode): \(extent) outside \(bounds)")
            }
        }
    }

    @Test func boundsFollowTheTransformAndTheWidth() throws {
        let thin = Fixtures.stroke([(10.5, 4.5), (20.5, 4.5)], key: Self.key(1), width: 0.25)
        var moved = thin
        moved.transform = StrokeTransform(dx: 100, dy: -50)
        var wide = thin
        wide.ink.width = 8
        #expect(SpatialIndex.bounds(of: Fixtures.group([thin])) == CellRect(x: 9, y: 3, width: 13, height: 3))
        #expect(
            SpatialIndex.bounds(of: Fixtures.group([moved])) == CellRect(x: 109, y: -47, width: 13, height: 3)
        )
        #expect(
            SpatialIndex.bounds(of: Fixtures.group([wide])) == CellRect(x: 5, y: -1, width: 21, height: 11))
    }

    @Test func aRemovedGroupIsGoneAndItsSlotServesTheNext() {
        var index = SpatialIndex()
        let near = Fixtures.group([Fixtures.stroke([(2, 2), (6, 3)], key: Self.key(1))])
        let far = Fixtures.group([Fixtures.stroke([(500, 300), (501, 300)], key: Self.key(2))])
        let everywhere = Fixtures.group([Fixtures.stroke([(-900_000, 0), (900_000, 5)], key: Self.key(3))])
        index.update(near.key, to: near)
        index.update(everywhere.key, to: everywhere)
        let corner = CellRect(x: 0, y: 0, width: 10, height: 10)
        #expect(index.keys(in: corner) == [near.key, everywhere.key])
        index.update(near.key, to: nil)
        index.update(far.key, to: far)
        #expect(index.keys(in: corner) == [everywhere.key])
        #expect(index.keys(in: CellRect(x: 495, y: 295, width: 10, height: 10)) == [far.key])
        index.update(everywhere.key, to: nil)
        #expect(index.keys(in: corner).isEmpty)
        #expect(index.count == 1)
        #expect(index.bounds(of: near.key) == nil)
    }

    @Test func theDrawingKeepsItsIndexAndReportsTheRegionsItsChangesTouched() throws {
        let first = Fixtures.group([Fixtures.stroke([(2, 2), (6, 3)], key: Self.key(1))])
        let second = Fixtures.group([Fixtures.stroke([(40, 20), (44, 20)], key: Self.key(2))])
        var drawing = Drawing(groups: [first, second])
        #expect(drawing.groups(in: CellRect(x: 0, y: 0, width: 10, height: 10)) == [first])
        let start = drawing.revision
        var movedStroke = try #require(second.pieces.first)
        movedStroke.transform = StrokeTransform(dx: -30, dy: -15)
        let moved = Fixtures.group([movedStroke])
        drawing.insert(moved)
        drawing.removeGroup(for: first.key)
        let regions = try #require(drawing.changedRegions(since: start))
        #expect(
            Set(regions)
                == Set([
                    SpatialIndex.bounds(of: second), SpatialIndex.bounds(of: moved),
                    SpatialIndex.bounds(of: first),
                ])
        )
        #expect(drawing.groups(in: CellRect(x: 0, y: 0, width: 10, height: 10)) == [moved])
        #expect(drawing.changedRegions(since: drawing.revision) == [])
        for step in 0...Drawing.journalLimit {
            drawing.insert(Fixtures.group([Fixtures.stroke([(1, 1)], key: Self.key(10 + step))]))
        }
        #expect(drawing.changedRegions(since: start) == nil)
    }
}

import StrokeKitTestSupport
import TestSupport
import Testing

@testable import StrokeKit

/// A large drawing's layer is drawn in bands of rows at once, each on a thread of its own with
/// its own query, masks and walk. However many bands there are, and wherever their edges fall,
/// the layer must be the layer of every group drawn in key order: strokes crossing an edge ink
/// both bands, covers and holes lie across edges, and a band under text is drawn in key order
/// while its neighbours are walked topmost first.
@Suite struct RasterLayerBandsTests {
    static let viewport = RasterLayerCoveredTests.viewport

    /// Every band count from one to more bands than the viewport has rows.
    static let bandCounts = [1, 2, 3, 4, 5, 13, 40]

    static func expectEveryBandCount(_ groups: [StrokeGroup], mode: GlyphMode, _ comment: Comment) {
        let drawing = Drawing(groups: groups)
        let expected = RasterLayerTopFirstTests.inKeyOrder(drawing.groups, viewport: viewport, mode: mode)
        for bands in bandCounts {
            #expect(
                RasterLayer(drawing, viewport: viewport, mode: mode, bands: bands) == expected,
                "\(comment), \(bands) bands")
        }
    }

    @Test(arguments: [GlyphMode.block, .braille, .ascii], Array(UInt64(1)...8))
    func everyBandCountDrawsTheLayerOfEveryGroupInKeyOrder(mode: GlyphMode, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let below = RasterLayerCoveredTests.scattered(count: 400, firstKey: 1_774_455_000_000, using: &random)
        let pens = RasterLayerCoveredTests.cover(
            keys: 1_774_456_000_000...1_774_456_000_100, colour: 7,
            hole: (
                Double(Int.random(in: -5...70, using: &random)) + 0.25,
                Double(Int.random(in: -3...10, using: &random)) + 0.5, 0.6
            ))
        let above = RasterLayerCoveredTests.scattered(count: 60, firstKey: 1_774_457_000_000, using: &random)
        Self.expectEveryBandCount(below + pens + above, mode: mode, "seed \(seed)")
        Self.expectEveryBandCount(below, mode: mode, "seed \(seed), no cover")
    }

    /// Text in some bands only: those are drawn in key order, the others topmost first, and the
    /// layer is the same as one drawn whole.
    @Test(arguments: [GlyphMode.block, .braille], Array(UInt64(1)...6))
    func aBandUnderTextIsDrawnInKeyOrderBesideWalkedBands(mode: GlyphMode, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var groups = RasterLayerCoveredTests.scattered(
            count: 300, firstKey: 1_774_455_000_000, using: &random)
        for index in stride(from: 7, to: groups.count, by: 37) {
            let cell = (
                x: Int.random(in: -6...70, using: &random),
                y: Int.random(in: -3...(-1 + 2 * Int(seed % 3)), using: &random)
            )
            groups[index] = Fixtures.group([
                Fixtures.text("band", at: cell, key: groups[index].key, colour: UInt8(index % 200 + 1))
            ])
        }
        Self.expectEveryBandCount(groups, mode: mode, "seed \(seed)")
    }

    @Test func bandsCoverEveryRowOnceTopFirstInNearlyEqualHeights() {
        for viewport in [
            Self.viewport, Viewport(x: 3, y: -7, width: 200, height: 60),
            Viewport(x: 0, y: 0, width: 5, height: 1),
        ] {
            for count in [1, 2, 3, 4, 7, 60, 100] {
                let bands = RasterLayer.bands(of: viewport, count: count)
                #expect(bands.count == min(count, viewport.height))
                #expect(bands.first?.y == viewport.y)
                #expect(bands.last?.maxY == viewport.maxY)
                for (upper, lower) in zip(bands, bands.dropFirst()) { #expect(upper.maxY == lower.y) }
                #expect(
                    bands.allSatisfy { $0.x == viewport.x && $0.width == viewport.width && $0.height > 0 })
                let heights = bands.map(\.height)
                #expect((heights.max() ?? 0) - (heights.min() ?? 0) <= 1)
            }
        }
    }

    /// A small drawing or a short viewport is drawn in one band; a large drawing in at most one
    /// band a processor, each of at least the minimum rows.
    @Test func aLayerIsCutIntoBandsOnlyWhereTheDrawingIsLarge() {
        var random = SplitMix64(seed: 5)
        let small = Drawing(
            groups: RasterLayerCoveredTests.scattered(count: 50, firstKey: 1_774_455_000_000, using: &random))
        let large = Drawing(
            groups: RasterLayerCoveredTests.scattered(
                count: RasterLayer.minimumGroupsForBands, firstKey: 1_774_455_000_000, using: &random))
        let wide = Viewport(x: 0, y: 0, width: 200, height: 60)
        #expect(RasterLayer.bandCount(for: small, viewport: wide) == 1)
        #expect(RasterLayer.bandCount(for: large, viewport: Viewport(x: 0, y: 0, width: 200, height: 9)) == 1)
        let bands = RasterLayer.bandCount(for: large, viewport: wide)
        #expect(bands >= 1 && bands <= RasterLayer.maximumBands)
        // The layer drawn with the count chosen is the layer drawn in one band.
        #expect(
            RasterLayer(large, viewport: wide, mode: .braille)
                == RasterLayer(large, viewport: wide, mode: .braille, bands: 1))
    }
}

/// The walk's hints read an array's storage the way the standard library lays it out; on the
/// platforms this app is built for (64-bit Linux and macOS) that layout holds, so the hints are
/// given. Were it ever not to, `StorageHint.isAvailable` turns them off and frames stay correct
/// (every layer test above runs either way), only slower: this test says so first.
@Suite struct StorageHintTests {
    @Test func theLayoutTheHintsReadHoldsOnThisPlatform() {
        #expect(StorageHint.isAvailable)
    }

    @Test func anArraysElementsBeginAtTheOffsetAfterItsStorage() {
        let points = (0..<40).map { StrokePoint(x: Double($0), y: 1, timeOffsetMilliseconds: $0) }
        withUnsafePointer(to: points) { stored in
            let storage = StorageHint.storage(at: UnsafeRawPointer(stored))
            let elements = points.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            #expect(storage.map { $0 + StorageHint.elementsOffset } == elements)
        }
    }
}

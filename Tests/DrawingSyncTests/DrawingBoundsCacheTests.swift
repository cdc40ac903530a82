import DrawingSync
import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

/// The bounds cache's bytes and its entries.
@Suite struct DrawingBoundsCacheTests {
    typealias F = StrokeFixtures

    static let line = F.group(Fixtures.stroke([(1.5, 2.5), (30.5, 6.5)], key: F.key(0), width: 1))

    static func sample() -> DrawingBoundsCache {
        var cache = DrawingBoundsCache(drawingID: "drawing-1")
        for offset in 0..<20 {
            let x = Double(offset * 7) - 30.5
            let y = Double(-offset * 3) + 9.5
            let group = F.group(
                Fixtures.stroke([(x, y), (x + 9, y + 4)], key: F.key(Int64(offset)), width: 2))
            cache.set(DrawingBoundsCache.entry(for: EncodedGroup(group)), for: group.key.rawValue)
        }
        return cache
    }

    @Test func aCacheReadsBackAsItWasWritten() throws {
        let cache = Self.sample()
        #expect(cache.entries.count == 20)
        #expect(try DrawingBoundsCache(decoding: cache.encoded(), drawingID: "drawing-1") == cache)
        #expect(
            try DrawingBoundsCache(decoding: DrawingBoundsCache(drawingID: "d").encoded(), drawingID: "d")
                .entries.isEmpty)
    }

    @Test func everyChangedOrMissingByteIsRefused() {
        let bytes = Self.sample().encoded()
        for index in stride(from: 0, to: bytes.count, by: 5) {
            var changed = bytes
            changed[index] ^= 0x01
            #expect(throws: DrawingBoundsCacheError.self) {
                try DrawingBoundsCache(decoding: changed, drawingID: "drawing-1")
            }
        }
        for count in [0, 10, bytes.count - 1] {
            #expect(throws: DrawingBoundsCacheError.self) {
                try DrawingBoundsCache(decoding: Array(bytes.prefix(count)), drawingID: "drawing-1")
            }
        }
        #expect(throws: DrawingBoundsCacheError.otherDrawing("drawing-1")) {
            try DrawingBoundsCache(decoding: bytes, drawingID: "drawing-2")
        }
    }

    /// An entry serves only the exact bytes it was made from.
    @Test func boundsAreGivenOnlyForTheValueTheyWereComputedFrom() throws {
        let encoded = EncodedGroup(Self.line)
        var cache = DrawingBoundsCache(drawingID: "drawing-1")
        cache.set(DrawingBoundsCache.entry(for: encoded), for: Self.line.key.rawValue)
        #expect(
            cache.bounds(of: Self.line.key.rawValue, storedBytes: encoded.storedBytes)
                == SpatialIndex.bounds(of: Self.line))
        let moved = EncodedGroup(Self.line.translated(dx: 40, dy: 0))
        #expect(cache.bounds(of: Self.line.key.rawValue, storedBytes: moved.storedBytes) == nil)
        #expect(cache.bounds(of: F.key(9).rawValue, storedBytes: encoded.storedBytes) == nil)
    }

    /// The bounds of the stroke as drawn hold those of every piece its sweeps leave.
    @Test func theBoundsOfTheStrokeAsDrawnHoldThoseOfItsPieces() throws {
        var random = SplitMix64(seed: 0xB0)
        let eraser = MaskEraser(brush: EraserBrush(radius: 1.5))
        for round in 0..<50 {
            let path = (0..<12).map { _ in
                (Double.random(in: 0..<60, using: &random), Double.random(in: 0..<20, using: &random))
            }
            var group = F.group(Fixtures.stroke(path, key: F.key(Int64(round)), width: 1))
            for sweep in 0..<3 {
                let (x, y) = path[Int.random(in: 0..<path.count, using: &random)]
                group = group.addingPasses(
                    eraser.sweep(along: [CanvasPoint(x: x, y: y)], near: group),
                    toSweep: F.key(Int64(1_000 + round * 3 + sweep)))
            }
            let entry = try #require(DrawingBoundsCache.entry(for: EncodedGroup(group)))
            guard let pieces = SpatialIndex.bounds(of: group) else { continue }  // all erased
            #expect(entry.bounds.union(pieces) == entry.bounds)
        }
    }

    @Test func aCacheIsWrittenAndReadInTheStoreDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "boundscache")
        #expect(try DrawingBoundsCache.read(inStore: directory.path, drawingID: "drawing-1") == nil)
        let cache = Self.sample()
        try cache.write(inStore: directory.path)
        #expect(try DrawingBoundsCache.read(inStore: directory.path, drawingID: "drawing-1") == cache)
        #expect(throws: DrawingBoundsCacheError.self) {
            try DrawingBoundsCache(drawingID: "drawing-1").write(inStore: directory.path + "/missing/dir")
        }
    }
}

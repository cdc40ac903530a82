import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

@testable import DrawingSync

/// The table a staged open reads the bounds cache into answers exactly as the cache's map does.
@Suite struct BoundsCacheTableTests {
    typealias F = StrokeFixtures

    @Test(arguments: 0..<10)
    func theTableFindsWhatTheMapHoldsAndNothingElse(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x7AB1E + seed)
        var cache = DrawingBoundsCache(drawingID: "drawing-1")
        var values: [String: [UInt8]] = [:]
        var others: [String] = []
        for index in 0..<Int.random(in: 0..<300, using: &random) {
            let peer = ["aaaaaa", "b", "c0ffee12", "zzzzzzzzzzzzzzzz"][Int.random(in: 0..<4, using: &random)]
            let key = F.key(Int64(index) * Int64.random(in: 1...5, using: &random), peer: peer).rawValue
            guard Int.random(in: 0..<4, using: &random) != 0 else {
                others.append(key)
                continue
            }
            let value = (0..<Int.random(in: 3...30, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            values[key] = value
            let bounds = CellRect(
                x: Int.random(in: -99...99, using: &random), y: Int.random(in: -99...99, using: &random),
                width: Int.random(in: 1...30, using: &random), height: Int.random(in: 1...30, using: &random))
            cache.set(
                DrawingBoundsCache.Entry(fingerprint: StrokeFingerprint(of: value), bounds: bounds),
                for: key)
        }
        let table = try DrawingBoundsCache.table(decoding: cache.encoded(), drawingID: "drawing-1")
        #expect(table.count == cache.entries.count)
        // Ranks are places in key order.
        let sorted = cache.entries.keys.sorted()
        for (rank, key) in sorted.enumerated() {
            #expect(table.rank(of: key) == rank)
            #expect(table.key(ofRank: rank) == key)
            let value = try #require(values[key])
            #expect(table.entry(of: key, storedBytes: value) == cache.entry(of: key, storedBytes: value))
            #expect(table.entry(of: key, storedBytes: value)?.rank == Int32(rank))
            #expect(table.entry(of: key, storedBytes: value + [0]) == nil)
        }
        for key in others where cache.entries[key] == nil {
            #expect(table.rank(of: key) == nil)
        }
        #expect(table.rank(of: "") == nil)
    }
}

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
        var texts: [String: String] = [:]
        var others: [String] = []
        for index in 0..<Int.random(in: 0..<300, using: &random) {
            let peer = ["aaaaaa", "b", "c0ffee12", "zzzzzzzzzzzzzzzz"][Int.random(in: 0..<4, using: &random)]
            let key = F.key(Int64(index) * Int64.random(in: 1...5, using: &random), peer: peer).rawValue
            guard Int.random(in: 0..<4, using: &random) != 0 else {
                others.append(key)
                continue
            }
            let text = String(repeating: "A", count: Int.random(in: 4...40, using: &random))
            texts[key] = text
            let bounds = CellRect(
                x: Int.random(in: -99...99, using: &random), y: Int.random(in: -99...99, using: &random),
                width: Int.random(in: 1...30, using: &random), height: Int.random(in: 1...30, using: &random))
            cache.set(
                DrawingBoundsCache.Entry(fingerprint: StrokeFingerprint(ofUTF8: text), bounds: bounds),
                for: key)
        }
        let table = try DrawingBoundsCache.table(decoding: cache.encoded(), drawingID: "drawing-1")
        #expect(table.count == cache.entries.count)
        // Ranks are places in key order.
        let sorted = cache.entries.keys.sorted()
        for (rank, key) in sorted.enumerated() {
            #expect(table.rank(of: key) == rank)
            #expect(table.key(ofRank: rank) == key)
            let text = try #require(texts[key])
            #expect(table.entry(of: key, storedText: text) == cache.entry(of: key, storedText: text))
            #expect(table.entry(of: key, storedText: text)?.rank == Int32(rank))
            #expect(table.entry(of: key, storedText: text + "A") == nil)
        }
        for key in others where cache.entries[key] == nil {
            #expect(table.rank(of: key) == nil)
        }
        #expect(table.rank(of: "") == nil)
    }
}

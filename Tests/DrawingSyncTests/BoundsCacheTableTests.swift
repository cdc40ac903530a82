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

    /// An entry is found by its key's hash and its fingerprint, without the key's bytes being
    /// compared (stored bytes begin with their key): the right bytes under their key find it;
    /// another key's bytes, changed bytes or a key the cache does not hold find nothing.
    @Test func anEntryIsFoundByItsKeyAndItsStoredBytes() throws {
        var cache = DrawingBoundsCache(drawingID: "drawing-1")
        var encoded: [EncodedGroup] = []
        for index in 0..<500 {
            let group = F.group(F.stroke(at: Double(index % 90), key: F.key(Int64(index) * 7)))
            encoded.append(EncodedGroup(group))
            cache.set(DrawingBoundsCache.entry(for: encoded[index]), for: group.key.rawValue)
        }
        let table = try DrawingBoundsCache.table(decoding: cache.encoded(), drawingID: "drawing-1")
        for (index, form) in encoded.enumerated() {
            let key = form.key.rawValue
            let found = table.entry(of: key, storedBytes: form.storedBytes)
            #expect(found == cache.entry(of: key, storedBytes: form.storedBytes) && found != nil)
            #expect(found?.rank == Int32(try #require(table.rank(of: key))))
            let other = encoded[(index + 1) % encoded.count]
            #expect(table.entry(of: key, storedBytes: other.storedBytes) == nil)
            var changed = form.storedBytes
            changed[changed.count - 1] ^= 0xFF
            #expect(table.entry(of: key, storedBytes: changed) == nil)
        }
        let unknown = EncodedGroup(F.group(F.stroke(at: 3, key: F.key(1))))
        #expect(table.entry(of: unknown.key.rawValue, storedBytes: unknown.storedBytes) == nil)
    }
}

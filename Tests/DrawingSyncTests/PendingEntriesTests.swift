import ReplicaCore
import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

@testable import DrawingSync

/// The strokes a staged open leaves for later are kept by their rank in the bounds cache: found
/// by key through the cache's table, taken in key order, each exactly once, and a rank that is
/// not the cache's (or is taken already) refused so the open decodes that stroke at once.
@Suite struct PendingEntriesTests {
    typealias F = StrokeFixtures

    /// A cache of `count` strokes, every fifth in the region at the origin, and its keys in
    /// key order (their ranks).
    static func cache(_ count: Int) throws -> (table: BoundsCacheTable, keys: [String], bounds: [CellRect]) {
        var cache = DrawingBoundsCache(drawingID: "drawing-1")
        for index in 0..<count {
            let key = F.key(Int64(index) * 7, peer: index % 3 == 0 ? "a" : "bcd").rawValue
            let bounds = CellRect(x: index % 5 == 0 ? 0 : 100 + index, y: 0, width: 4, height: 2)
            cache.set(
                DrawingBoundsCache.Entry(
                    fingerprint: StrokeFingerprint(of: [UInt8(index % 256)]), bounds: bounds), for: key)
        }
        let table = try DrawingBoundsCache.table(decoding: cache.encoded(), drawingID: "drawing-1")
        let keys = cache.entries.keys.sorted()
        return (
            table, keys, keys.map { cache.entries[$0]?.bounds ?? CellRect(x: 0, y: 0, width: 0, height: 0) }
        )
    }

    static func value(_ rank: Int) -> DocumentValue { .string("value-\(rank)") }

    @Test func aStrokeKeptUnderItsRankIsFoundByItsKeyAndTakenOnce() throws {
        let (table, keys, _) = try Self.cache(40)
        var pending = PendingEntries(table: table)
        for rank in stride(from: 39, through: 0, by: -2) {
            let added = pending.add(keys[rank], value: Self.value(rank), rank: Int32(rank))
            #expect(added)
        }
        #expect(pending.count == 20)
        // A rank held already, or none of the cache's, is refused: the open decodes it now.
        let refused = [
            pending.add(keys[39], value: Self.value(39), rank: 39),
            pending.add("other", value: .string("x"), rank: 40),
            pending.add("other", value: .string("x"), rank: -1),
        ]
        #expect(refused == [false, false, false])
        #expect(pending.count == 20)
        for (rank, key) in keys.enumerated() {
            #expect(pending.holds(key) == (rank % 2 == 1), "rank \(rank)")
            #expect(pending.value(of: key) == (rank % 2 == 1 ? Self.value(rank) : nil))
        }
        #expect(!pending.holds("not-a-key"))
        #expect(pending.rawKeys == keys.enumerated().filter { $0.offset % 2 == 1 }.map(\.element))
        let taken = pending.take([keys[5], keys[4], keys[5], "not-a-key", keys[7]])
        #expect(taken.map(\.rawKey) == [keys[5], keys[7]])
        #expect(taken.map(\.base) == [Self.value(5), Self.value(7)])
        #expect(!pending.holds(keys[5]) && pending.count == 18)
    }

    @Test func strokesAreTakenLowestKeyFirstAndThoseMeetingAPreferredRegionBeforeThem() throws {
        let (table, keys, bounds) = try Self.cache(100)
        var pending = PendingEntries(table: table)
        for rank in keys.indices.reversed() where rank % 4 != 3 {
            let added = pending.add(keys[rank], value: Self.value(rank), rank: Int32(rank))
            #expect(added)
        }
        let kept = keys.indices.filter { $0 % 4 != 3 }
        let region = CellRect(x: 0, y: 0, width: 10, height: 10)
        let meeting = kept.filter { bounds[$0].intersects(region) }
        // Three meeting the region, then the lowest kept.
        let first = pending.takeNext(3, preferring: region).map(\.rawKey)
        #expect(first == meeting.prefix(3).map { keys[$0] })
        let second = pending.takeNext(meeting.count, preferring: region).map(\.rawKey)
        let rest = Array(meeting.dropFirst(3))
        let lowest = kept.filter { !meeting.contains($0) }
        #expect(second == rest.map { keys[$0] } + lowest.prefix(3).map { keys[$0] })
        // Without a region: key order; every stroke exactly once in all.
        var seen = first + second
        while !pending.isEmpty { seen += pending.takeNext(7).map(\.rawKey) }
        #expect(seen.count == kept.count)
        #expect(Set(seen) == Set(kept.map { keys[$0] }))
        #expect(Array(seen.dropFirst(first.count + second.count)) == lowest.dropFirst(3).map { keys[$0] })
        let none = pending.takeNext(5)
        #expect(none.isEmpty && pending.rawKeys.isEmpty && !pending.holds(keys[0]))
    }

    @Test func theStrokesMeetingARectangleAreTakenWithTheirSweepsAndTheirCachedEntriesKept() throws {
        let (table, keys, bounds) = try Self.cache(60)
        var pending = PendingEntries(table: table)
        for rank in keys.indices { _ = pending.add(keys[rank], value: Self.value(rank), rank: Int32(rank)) }
        pending.addSweeps(keys[10], map: .object(["s": .string("sweep")]))
        let rect = CellRect(x: 0, y: 0, width: 2, height: 1)
        let taken = pending.take(meeting: rect)
        let meeting = keys.indices.filter { bounds[$0].intersects(rect) }
        #expect(taken.map(\.rawKey) == meeting.map { keys[$0] })
        #expect(taken.first { $0.rawKey == keys[10] }?.sweepMap == .object(["s": .string("sweep")]))
        // Asked again: nothing meets it any more.
        let again = pending.take(meeting: rect)
        #expect(again.isEmpty)
        let entries = pending.boundsCacheEntries()
        #expect(entries.map(\.key) == keys.indices.filter { !meeting.contains($0) }.map { keys[$0] })
        for (key, entry) in entries {
            let rank = try #require(keys.firstIndex(of: key))
            #expect(
                entry.bounds == bounds[rank] && entry.fingerprint == table.entry(ofRank: rank).fingerprint)
        }
    }
}

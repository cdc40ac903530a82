import TestSupport
import Testing

@testable import StrokeKit

/// The slot index answers exactly as a dictionary from keys to slots would, through inserts and
/// removals in any order, growth, and keys whose hashes collide (the probing and the shifting
/// back of a removal are where a table like it goes wrong).
@Suite struct SlotIndexTests {
    /// A key whose hash is chosen: `bucket` alone, so many keys share a home bucket and runs of
    /// them wrap around the end of the table.
    struct CollidingKey: Hashable {
        var id: Int
        var bucket: Int

        static func == (lhs: CollidingKey, rhs: CollidingKey) -> Bool { lhs.id == rhs.id }
        func hash(into hasher: inout Hasher) { hasher.combine(bucket) }
    }

    /// The store the index points into: slot to key, nil for a free slot.
    struct Store<Key: Hashable> {
        var keys: [Key?] = []
        var index = SlotIndex<Key>()
        var model: [Key: Int32] = [:]

        func slot(of key: Key) -> Int32? {
            index.slot(of: key) { keys[Int($0)] == key }
        }

        mutating func insert(_ key: Key) {
            let slot: Int32
            if let free = keys.firstIndex(where: { $0 == nil }) {
                slot = Int32(free)
                keys[free] = key
            } else {
                slot = Int32(keys.count)
                keys.append(key)
            }
            index.insert(slot, for: key)
            model[key] = slot
        }

        mutating func remove(_ key: Key) -> Int32? {
            let slot = index.remove(key) { keys[Int($0)] == key }
            if let slot { keys[Int(slot)] = nil }
            model[key] = nil
            return slot
        }

        func check(_ candidates: [Key], _ comment: Comment) {
            #expect(index.count == model.count, comment)
            for key in candidates { #expect(slot(of: key) == model[key], comment) }
        }
    }

    func run<Key: Hashable>(seed: UInt64, steps: Int, key: (Int, inout SplitMix64) -> Key) {
        var random = SplitMix64(seed: seed)
        var store = Store<Key>()
        let universe = (0..<300).map { key($0, &random) }
        for step in 0..<steps {
            let candidate = universe.randomElement(using: &random)!
            if store.model[candidate] != nil, Int.random(in: 0..<3, using: &random) != 0 {
                let expected = store.model[candidate]
                #expect(store.remove(candidate) == expected, "seed \(seed) step \(step)")
            } else if store.model[candidate] == nil {
                store.insert(candidate)
            } else {
                // Removing what is not held changes nothing.
                _ = store.remove(universe[299])
                store.model[universe[299]] = nil
            }
            if step % 25 == 0 { store.check(universe, "seed \(seed) step \(step)") }
        }
        store.check(universe, "seed \(seed) at the end")
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func answersAsADictionaryWithCollidingKeys(seed: UInt64) {
        run(seed: seed, steps: 2_000) { id, random in
            CollidingKey(id: id, bucket: Int.random(in: 0..<6, using: &random))
        }
    }

    @Test(arguments: [UInt64(11), 12, 13, 14])
    func answersAsADictionaryWithStrokeKeys(seed: UInt64) {
        run(seed: seed, steps: 3_000) { id, _ in
            StrokeKey(creationMilliseconds: 1_774_000_000_000 + Int64(id / 3), peerSuffix: "p\(id % 3)")!
        }
    }

    @Test func theBucketsAreAPowerOfTwoAtMostFourFifthsFull() {
        for count in [0, 1, 12, 13, 100, 1_000, 100_020] {
            let size = SlotIndex<Int>.bucketCount(for: count)
            #expect(size >= 16 && size & (size - 1) == 0)
            #expect(count * 5 <= size * 4)
            #expect(size == 16 || count * 5 > size / 2 * 4, "\(count) keys need fewer buckets")
            // Filled one key at a time, the index stays within the same bound.
            var index = SlotIndex<Int>()
            for key in 0..<count { index.insert(Int32(key), for: key) }
            #expect(count * 5 <= max(index.buckets.count, 16) * 4)
        }
        // 100,020 strokes: 131,072 buckets (1 MB), where three quarters full took 262,144.
        #expect(SlotIndex<Int>.bucketCount(for: 100_020) == 131_072)
    }

    @Test func reservingFirstKeepsEveryKey() {
        let keys = (0..<1_000).map { $0 * 7 }
        var index = SlotIndex<Int>()
        index.reserveCapacity(keys.count)
        for (slot, key) in keys.enumerated() { index.insert(Int32(slot), for: key) }
        #expect(index.count == keys.count)
        for (slot, key) in keys.enumerated() {
            #expect(index.slot(of: key) { keys[Int($0)] == key } == Int32(slot))
        }
        #expect(index.slot(of: 3) { keys[Int($0)] == 3 } == nil)
        #expect(index.remove(5) { keys[Int($0)] == 5 } == nil)
        #expect(index.count == keys.count)
    }
}

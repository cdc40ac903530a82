import TestSupport
import Testing

@testable import ReplicaCore

/// `ChildTable`, the children of a map node, answers as a dictionary of the same children
/// would: seeded random runs of insertions (with and without room reserved first, across many
/// growths of the index), lookups of present and absent keys, changes in place, and equality
/// whatever order two tables were filled in.
@Suite struct ChildTableTests {
    /// A node told apart from others by the counter of its map removal.
    static func node(_ counter: UInt64) -> PathNode {
        var node = PathNode()
        node.recordMapRemoval(VersionVector([PeerID(7): counter]))
        return node
    }

    static func randomKey(using random: inout SplitMix64) -> String {
        // Short keys (kept inline in the string) and 31-byte stroke-like keys.
        if Bool.random(using: &random) { return "k\(UInt16.random(in: 0...9_999, using: &random))" }
        let digits = (0..<16).map { _ in Character(String(Int.random(in: 0...9, using: &random))) }
        return "2026-03-25T16:\(String(digits.prefix(6)))~\(String(digits.suffix(8)))"
    }

    @Test(arguments: 0..<12)
    func aTableAnswersAsADictionaryOfTheSameChildren(seed: UInt64) {
        var random = SplitMix64(seed: 0xC41D + seed)
        var table =
            seed % 3 == 0
            ? ChildTable(minimumCapacity: Int.random(in: 0...3_000, using: &random)) : ChildTable()
        var model: [String: PathNode] = [:]
        for step in 0..<Int.random(in: 1...5_000, using: &random) {
            let key = Self.randomKey(using: &random)
            let node = Self.node(UInt64(step + 1))
            table.withValue(forKey: key) { $0 = node }
            model[key] = node
            if step % 97 == 0 {
                #expect(table.count == model.count)
                let absent = "absent-\(step)"
                #expect(table[absent] == nil)
            }
        }
        #expect(table.count == model.count && table.isEmpty == model.isEmpty)
        for (key, node) in model { #expect(table[key] == node, "seed \(seed) key \(key)") }
        #expect(Set(table.keys) == Set(model.keys))
        #expect(Dictionary(uniqueKeysWithValues: Array(table)) == model)
        // Changed in place: every node gets a later removal, and only its own.
        table.forEachValue { $0.recordMapRemoval(VersionVector([PeerID(8): 1])) }
        for key in model.keys {
            model[key]?.recordMapRemoval(VersionVector([PeerID(8): 1]))
            #expect(table[key] == model[key])
        }
    }

    @Test(arguments: 0..<6)
    func tablesOfTheSameChildrenAreEqualWhateverOrderTheyCameIn(seed: UInt64) {
        var random = SplitMix64(seed: 0xE9A1 + seed)
        let entries = (0..<Int.random(in: 0...600, using: &random)).map { index in
            (Self.randomKey(using: &random) + "-\(index)", Self.node(UInt64(index)))
        }
        var forwards = ChildTable()
        for (key, node) in entries { forwards.withValue(forKey: key) { $0 = node } }
        var backwards = ChildTable(minimumCapacity: entries.count)
        for (key, node) in entries.reversed() { backwards.withValue(forKey: key) { $0 = node } }
        #expect(forwards == backwards)
        #expect(forwards.keys == entries.map(\.0))
        guard let (key, _) = entries.first else { return }
        var changed = backwards
        changed.withValue(forKey: key) { $0.recordMapRemoval(VersionVector([PeerID(9): 1])) }
        #expect(changed != forwards)
        // The copy changed alone.
        #expect(backwards == forwards)
        var more = forwards
        more.withValue(forKey: "one more") { _ in }
        #expect(more != forwards && more.count == forwards.count + 1 && more["one more"] == PathNode())
    }

    @Test func theIndexIsAPowerOfTwoAtMostFourFifthsFull() {
        for count in [0, 1, 6, 7, 100, 1_000, 100_020] {
            let places = ChildTable.placeCount(for: count)
            #expect(places >= 8 && places & (places - 1) == 0)
            #expect(count * 5 <= places * 4)
            #expect(places == 8 || count * 5 > places / 2 * 4, "\(count) children need fewer places")
        }
        // 100,020 strokes: 131,072 places of 8 bytes, where the dictionary had 262,144 buckets.
        #expect(ChildTable.placeCount(for: 100_020) == 131_072)
    }
}

import ReplicaCore
import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

@testable import DrawingSync

/// `takeNew` is `update` for keys the model holds nothing of: a staged open takes its strokes
/// through it, so every group, problem and kept entry must be what the general path gives.
@Suite struct DrawingModelNewEntriesTests {
    typealias F = StrokeFixtures
    typealias Store = DrawingModelStoreTests

    /// A model that already holds some strokes (under keys the new entries do not use).
    static func modelHolding(_ count: Int) -> DrawingModel {
        var model = DrawingModel()
        let groups = (0..<count).map { F.group(F.stroke(at: Double($0), key: F.key(900_000 + Int64($0)))) }
        _ = model.update(
            fromStrokesMap: Dictionary(
                uniqueKeysWithValues: groups.map { ($0.key.rawValue, .string(EncodedGroup($0).value)) }))
        return model
    }

    /// Entries of new keys, good and bad: values that do not decode or are not strings, strokes
    /// of another key, sweep maps that are not maps, sweeps that do not decode, bad keys.
    static func newEntries(using random: inout SplitMix64) -> [DrawingModel.NewEntry] {
        Store.rawKeys.filter { _ in Int.random(in: 0..<4, using: &random) != 0 }.map { rawKey in
            var entry = DrawingModel.NewEntry(
                rawKey: rawKey, base: Store.baseValue(for: rawKey, using: &random))
            switch Int.random(in: 0..<6, using: &random) {
            case 0: entry.sweepMap = .string("not a map")
            case 1, 2:
                var sweeps: [String: DocumentValue] = [:]
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    sweeps[Store.rawSweepKey(using: &random)] = Store.sweepValue(using: &random)
                }
                entry.sweepMap = .object(sweeps)
            default: break
            }
            return entry
        }
    }

    @Test(arguments: 0..<40)
    func takingNewEntriesEqualsUpdatingWithThem(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let entries = Self.newEntries(using: &random)
        var general = Self.modelHolding(Int(seed % 3))
        var fast = general
        var stored = DrawingModel.StoredEntries()
        for entry in entries {
            stored.bases[entry.rawKey] = .some(entry.base)
            if let map = entry.sweepMap { stored.sweepMaps[entry.rawKey] = .some(map) }
        }
        let update = general.update(stored)
        let taken = fast.takeNew(entries)
        #expect(taken.problems == update.problems)
        // The groups in the order of the entries, and exactly the ones the update reported.
        let expected = entries.compactMap { StrokeKey(rawValue: $0.rawKey).flatMap { update.changed[$0] } }
        #expect(taken.groups == expected.compactMap { $0 })
        #expect(taken.groups.count == update.changed.count)
        #expect(fast.synced == general.synced)
        #expect(fast.readCount == general.readCount)
        for entry in entries {
            #expect(fast.storedEntry(entry.rawKey) == general.storedEntry(entry.rawKey))
        }
        #expect(fast.unmatched == general.unmatched)
    }
}

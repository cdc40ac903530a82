import ReplicaCore
import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

@testable import DrawingSync

/// The model keeps the replica's entries only where its synchronized forms do not say them
/// (`unmatched`); with `synced` they must be exactly what the replica holds, which is what the
/// model kept as a second map of every stroke before (`stored`), so every rebuild starts from
/// the same entries as it did then.
@Suite struct DrawingModelStoreTests {
    typealias F = StrokeFixtures
    typealias Entry = DrawingModel.StoredEntry

    static let keys = (0..<5).map { F.key(Int64($0) * 1_000) }
    static let sweepKeys = (0..<3).map { F.key(100_000 + Int64($0), peer: "bbbbbb") }
    /// Raw keys the model is given: five stroke keys and one that is not a key.
    static let rawKeys = keys.map(\.rawValue) + ["not-a-key"]

    /// The replica's entries as a test keeps them: what every delivery sets, applied in order.
    struct Mirror {
        var entries: [String: Entry] = [:]

        mutating func apply(_ update: DrawingModel.StoredEntries) {
            if update.replacesAllBases {
                for rawKey in entries.keys where update.bases[rawKey] == nil { entries[rawKey]?.base = nil }
            }
            if update.replacesAllSweeps {
                for rawKey in entries.keys where update.sweepMaps[rawKey] == nil {
                    entries[rawKey]?.sweeps = [:]
                }
            }
            for (rawKey, value) in update.bases { entries[rawKey, default: Entry()].base = value }
            for (rawKey, value) in update.sweepMaps {
                entries[rawKey, default: Entry()].sweeps = value?.objectValue ?? [:]
            }
            for (rawKey, sweeps) in update.sweeps {
                for (rawSweepKey, value) in sweeps {
                    entries[rawKey, default: Entry()].sweeps[rawSweepKey] = value
                }
            }
            entries = entries.filter { !$0.value.isEmpty }
        }
    }

    /// A value for a stroke entry: mostly a good encoding of some stroke under `rawKey`, else
    /// something the model must refuse (not base64, not a string, another key's stroke).
    static func baseValue(for rawKey: String, using random: inout SplitMix64) -> DocumentValue {
        guard let key = StrokeKey(rawValue: rawKey) else {
            return .string(EncodedGroup(F.group(F.stroke(at: 1, key: keys[0]))).value)
        }
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return .string("not base64 !")
        case 1: return .number(7)
        case 2:
            return .string(
                EncodedGroup(F.group(F.stroke(at: 3, key: keys[(keys.firstIndex(of: key)! + 1) % 5]))).value)
        default:
            let x = Double(Int.random(in: 0..<40, using: &random))
            return .string(EncodedGroup(F.group(F.stroke(at: x, key: key))).value)
        }
    }

    /// A value for a sweep entry: a good sweep, an empty one (which a group drops), or a bad one.
    static func sweepValue(using random: inout SplitMix64) -> DocumentValue {
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return .string("%%")
        case 1: return .bool(true)
        case 2: return .string(Base64.encode(StrokeGroupCodec.encodeSweep(.none)))
        default:
            let x = Double(Int.random(in: 0..<40, using: &random)) + 0.5
            return .string(
                Base64.encode(StrokeGroupCodec.encodeSweep(Fixtures.mask(radius: 0.5, [(x, 1), (x, 9)]))))
        }
    }

    static func rawSweepKey(using random: inout SplitMix64) -> String {
        Int.random(in: 0..<8, using: &random) == 0
            ? "bad sweep key" : sweepKeys[Int.random(in: 0..<3, using: &random)].rawValue
    }

    /// One delivery of the replica: a few entries set or unset, now and then the whole maps.
    static func delivery(_ mirror: Mirror, using random: inout SplitMix64) -> DrawingModel.StoredEntries {
        var entries = DrawingModel.StoredEntries()
        if Int.random(in: 0..<12, using: &random) == 0 {
            var next = mirror
            for rawKey in rawKeys where Bool.random(using: &random) {
                next.entries[rawKey, default: Entry()].base = baseValue(for: rawKey, using: &random)
            }
            let strokes = next.entries.compactMapValues(\.base)
            let sweeps = next.entries.filter { !$0.value.sweeps.isEmpty }.mapValues {
                DocumentValue.object($0.sweeps)
            }
            return DrawingModel.StoredEntries(strokes: strokes, sweeps: sweeps)
        }
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let rawKey = rawKeys[Int.random(in: 0..<rawKeys.count, using: &random)]
            switch Int.random(in: 0..<7, using: &random) {
            case 0: entries.bases[rawKey] = .some(nil)
            case 1: entries.sweepMaps[rawKey] = .some(nil)
            case 2:
                entries.sweepMaps[rawKey] = .some(
                    .object([rawSweepKey(using: &random): sweepValue(using: &random)]))
            case 3, 4:
                entries.sweeps[rawKey, default: [:]][rawSweepKey(using: &random)] =
                    Bool.random(using: &random) ? sweepValue(using: &random) : nil
            default: entries.bases[rawKey] = .some(baseValue(for: rawKey, using: &random))
            }
        }
        return entries
    }

    /// A local edit of one synchronized group (a stroke rewritten, a sweep added or taken out)
    /// and its flush: the changes recorded, then rolled back (a failed transaction) or
    /// committed, when the replica holds what was written and delivers it, as the coordinator's
    /// observer does.
    static func flush(_ model: inout DrawingModel, _ mirror: inout Mirror, using random: inout SplitMix64) {
        guard let key = model.synced.keys.sorted().randomElement(using: &random),
            let group = model.synced[key]?.group
        else { return }
        var drawing = Drawing(groups: model.drawing())
        let edited: StrokeGroup?
        switch Int.random(in: 0..<4, using: &random) {
        case 0: edited = nil
        case 1: edited = F.group(F.stroke(at: Double(Int.random(in: 50..<90, using: &random)), key: key))
        case 2:
            let x = Double(Int.random(in: 0..<40, using: &random)) + 0.5
            edited = group.settingSweep(
                Fixtures.mask(radius: 0.5, [(x, 1), (x, 9)]),
                for: sweepKeys[Int.random(in: 0..<3, using: &random)])
        default: edited = group.sweeps.keys.sorted().first.map { group.settingSweep(nil, for: $0) } ?? group
        }
        _ = drawing.setGroup(edited, for: key)
        let changes = model.changes(current: drawing, among: [key])
        guard !changes.isEmpty else { return }
        let pending = model.persistPending(changes)
        if Bool.random(using: &random) {
            model.rollback(pending)
            return
        }
        var written = DrawingModel.StoredEntries()
        for key in changes.baseWrites {
            written.bases[key.rawValue] = .some(.string(changes.upserts[key]!.value))
        }
        for (key, sweepKeys) in changes.sweepWrites {
            for sweepKey in sweepKeys {
                written.sweeps[key.rawValue, default: [:]][sweepKey.rawValue] =
                    .string(changes.upserts[key]!.sweepValues[sweepKey]!)
            }
        }
        for (key, sweepKeys) in changes.sweepRemovals {
            for sweepKey in sweepKeys {
                written.sweeps[key.rawValue, default: [:]][sweepKey.rawValue] = .some(nil)
            }
        }
        for key in changes.removals {
            written.bases[key.rawValue] = .some(nil)
            written.sweepMaps[key.rawValue] = .some(nil)
        }
        // Only what the replica changes is delivered (an unset of an entry it lacks is not).
        written.bases = written.bases.filter { mirror.entries[$0.key]?.base != $0.value }
        written.sweepMaps = written.sweepMaps.filter { mirror.entries[$0.key]?.sweeps.isEmpty == false }
        for (rawKey, sweeps) in written.sweeps {
            written.sweeps[rawKey] = sweeps.filter { mirror.entries[rawKey]?.sweeps[$0.key] != $0.value }
        }
        mirror.apply(written)
        _ = model.update(written)
        model.applyRemoves(changes.removals)
    }

    @Test(arguments: 0..<40 as Range<UInt64>)
    func theModelShowsExactlyTheEntriesTheReplicaHolds(seed: UInt64) {
        var random = SplitMix64(seed: 0x5_70AE_D000 + seed)
        var model = DrawingModel()
        var mirror = Mirror()
        for step in 0..<120 {
            if Int.random(in: 0..<4, using: &random) == 0 {
                Self.flush(&model, &mirror, using: &random)
            } else {
                let entries = Self.delivery(mirror, using: &random)
                mirror.apply(entries)
                _ = model.update(entries)
            }
            for rawKey in Self.rawKeys {
                #expect(
                    model.storedEntry(rawKey) == mirror.entries[rawKey] ?? Entry(),
                    "seed \(seed), step \(step), key \(rawKey)")
            }
            // A group shows only where its stroke is stored.
            for key in model.synced.keys { #expect(mirror.entries[key.rawValue]?.base != nil) }
            // What is kept apart is only what the synchronized forms do not say.
            for (rawKey, entry) in model.unmatched {
                #expect(!entry.isShown(by: StrokeKey(rawValue: rawKey).flatMap { model.synced[$0] }))
            }
        }
    }

    @Test func aDrawingWhoseEntriesAllDecodeKeepsNothingApart() {
        let groups = (0..<50).map { F.group(F.stroke(at: Double($0), key: F.key(Int64($0)))) }
        let swept = groups[7].settingSweep(
            Fixtures.mask(radius: 0.5, [(7.5, 0), (7.5, 9)]), for: Self.sweepKeys[0])
        var model = DrawingModel()
        let sweepValue = EncodedGroup(swept).sweepValues[Self.sweepKeys[0]]!
        _ = model.update(
            fromStrokesMap: Dictionary(
                uniqueKeysWithValues: groups.map { ($0.key.rawValue, .string(EncodedGroup($0).value)) }),
            sweeps: [swept.key.rawValue: .object([Self.sweepKeys[0].rawValue: .string(sweepValue)])])
        #expect(model.synced.count == 50)
        #expect(model.synced[swept.key]?.group == swept)
        #expect(model.unmatched.isEmpty)
    }

    @Test func anEntryThatCannotBeReadIsKeptApartUntilItCanBe() {
        let group = F.group(F.stroke(at: 4, key: Self.keys[1]))
        var model = DrawingModel()
        _ = model.update(fromStrokesMap: F.strokesMap(group))
        var broken = DrawingModel.StoredEntries()
        broken.bases[group.key.rawValue] = .some(.string("not base64 !"))
        let update = model.update(broken)
        #expect(update.problems.count == 1)
        // The last good version still shows; the replica's entry is what is kept apart.
        #expect(model.synced[group.key]?.group == group)
        #expect(model.unmatched[group.key.rawValue]?.base == .string("not base64 !"))
        let fixed = F.group(F.stroke(at: 9, key: Self.keys[1]))
        _ = model.update(fromStrokesMap: F.strokesMap(fixed))
        #expect(model.synced[group.key]?.group == fixed)
        #expect(model.unmatched.isEmpty)
    }
}

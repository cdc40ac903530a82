import ReplicaCore
import StrokeKit

/// What the coordinator last synchronized for one drawing: per stroke key, the group, its stored
/// value and its fingerprint.
///
/// From the canvas it computes the entries to write, the keys to remove and the keys that are
/// new; it records a flush optimistically and rolls it back when the transaction fails, so the
/// next flush finds the same changes again; and it takes in the replica's `strokes` map.
public struct DrawingModel: Sendable {
    /// The result of comparing the canvas with the synchronized state.
    public struct Changes: Equatable, Sendable {
        /// Entries to write (new or changed groups), with their encodings.
        public var upserts: [StrokeKey: EncodedGroup] = [:]
        /// Keys whose groups are gone from the canvas.
        public var removals: Set<StrokeKey> = []
        /// The keys among `upserts` that were never synchronized.
        public var newKeys: Set<StrokeKey> = []

        public var isEmpty: Bool { upserts.isEmpty && removals.isEmpty }
    }

    /// What `persistPending` replaced, so `rollback` can put it back.
    public struct Pending: Sendable {
        fileprivate var previous: [StrokeKey: EncodedGroup?]
    }

    /// What the replica's map changed in the model: per key the new group, or nil when removed.
    public struct StoreUpdate: Sendable {
        public var changed: [StrokeKey: StrokeGroup?] = [:]
        /// Entries that could not be read; they are left out of the drawing.
        public var problems: [StoredGroupProblem] = []
    }

    public private(set) var synced: [StrokeKey: EncodedGroup] = [:]
    /// How many groups `changes` has encoded so far (unchanged groups are never re-encoded).
    public private(set) var encodeCount = 0
    /// How many stored entries the updates have read so far: a change of one entry should cost
    /// one read, not one per stroke of the drawing.
    public private(set) var readCount = 0

    public init() {}

    /// Compares the groups of `keys` in the drawing (`current`) with what was synchronized.
    public mutating func changes(current: Drawing, among keys: some Sequence<StrokeKey>)
        -> Changes
    {
        var changes = Changes()
        for key in keys {
            let known = synced[key]
            guard let group = current[key] else {
                if known != nil { changes.removals.insert(key) }
                continue
            }
            if let known, known.group == group { continue }
            let encoded = EncodedGroup(group)
            encodeCount += 1
            if let known, known.fingerprint == encoded.fingerprint { continue }
            changes.upserts[key] = encoded
            if known == nil { changes.newKeys.insert(key) }
        }
        return changes
    }

    /// Compares every group in the drawing, and every synchronized key, with the synchronized state.
    public mutating func changes(current: Drawing) -> Changes {
        changes(current: current, among: Set(current.keys).union(synced.keys))
    }

    /// The keys whose group in `drawing` is not the synchronized one (groups that were not
    /// changed share their storage, so most comparisons are immediate).
    public func keysDiffering(from drawing: Drawing) -> Set<StrokeKey> {
        var keys = Set(drawing.keys.filter { synced[$0]?.group != drawing[$0] })
        for key in synced.keys where drawing[key] == nil { keys.insert(key) }
        return keys
    }

    /// Records the entries of a flush before its transaction runs, so a second flush does not
    /// write them again. Removals stay known until `applyRemoves` after the commit.
    public mutating func persistPending(_ changes: Changes) -> Pending {
        var previous: [StrokeKey: EncodedGroup?] = [:]
        for (key, encoded) in changes.upserts {
            previous[key] = .some(synced[key])
            synced[key] = encoded
        }
        return Pending(previous: previous)
    }

    /// Undoes `persistPending` after a failed transaction.
    public mutating func rollback(_ pending: Pending) {
        for (key, previous) in pending.previous {
            synced[key] = previous
        }
    }

    /// Forgets keys whose removal has committed.
    public mutating func applyRemoves(_ keys: some Sequence<StrokeKey>) {
        for key in keys { synced[key] = nil }
    }

    /// Takes in the replica's `strokes` map as a whole: keys absent from it are removed.
    public mutating func update(fromStrokesMap map: [String: DocumentValue]) -> StoreUpdate {
        update(entries: map.mapValues { Optional($0) }, replacingAll: true)
    }

    /// Takes in some entries of the replica's `strokes` map: per key its value now, or nil when
    /// the entry is gone; with `replacingAll`, the entries are the whole map and known keys
    /// absent from them are gone too. Values equal to what is known are not decoded again. An
    /// entry that cannot be read keeps showing the last good version of its group (if any)
    /// rather than dropping a stroke nobody can read, and is reported.
    public mutating func update(entries: [String: DocumentValue?], replacingAll: Bool = false) -> StoreUpdate
    {
        var entries = entries
        if replacingAll {
            for key in synced.keys where entries[key.rawValue] == nil { entries[key.rawValue] = .some(nil) }
        }
        var update = StoreUpdate()
        for (rawKey, value) in entries {
            readCount += 1
            guard let value else {
                if let key = StrokeKey(rawValue: rawKey), synced.removeValue(forKey: key) != nil {
                    update.changed[key] = .some(nil)
                }
                continue
            }
            guard case .string(let text) = value else {
                update.problems.append(.notAString(key: rawKey))
                continue
            }
            if let key = StrokeKey(rawValue: rawKey), synced[key]?.value == text { continue }
            do {
                let encoded = try EncodedGroup(storedValue: text, under: rawKey)
                synced[encoded.key] = encoded
                update.changed[encoded.key] = .some(encoded.group)
            } catch {
                update.problems.append(error)
            }
        }
        update.problems.sort { $0.description < $1.description }
        return update
    }

    /// The synchronized drawing, groups in key order (z-order).
    public func drawing() -> [StrokeGroup] {
        synced.keys.sorted().compactMap { synced[$0]?.group }
    }
}

import ReplicaStore
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

    public init() {}

    /// Compares the groups of `keys` on the canvas (`current`) with what was synchronized.
    public mutating func changes(current: [StrokeKey: StrokeGroup], among keys: some Sequence<StrokeKey>)
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
            let encoded = StrokeModel.encode(group)
            encodeCount += 1
            if let known, known.fingerprint == encoded.fingerprint { continue }
            changes.upserts[key] = encoded
            if known == nil { changes.newKeys.insert(key) }
        }
        return changes
    }

    /// Compares every group on the canvas, and every synchronized key, with the synchronized state.
    public mutating func changes(current: [StrokeKey: StrokeGroup]) -> Changes {
        changes(current: current, among: Set(current.keys).union(synced.keys))
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

    /// Takes in the replica's `strokes` map as a whole: entries whose value equals what is known
    /// are not decoded again; the rest are decoded, and keys absent from the map are removed.
    public mutating func update(fromStrokesMap map: [String: DocumentValue]) -> StoreUpdate {
        var update = StoreUpdate()
        var seen: Set<StrokeKey> = []
        for (rawKey, value) in map {
            guard case .string(let text) = value else {
                update.problems.append(.notAString(key: rawKey))
                continue
            }
            let encoded: EncodedGroup
            if let key = StrokeKey(rawValue: rawKey), let known = synced[key], known.value == text {
                seen.insert(key)
                continue
            }
            do {
                encoded = try StrokeModel.decode(key: rawKey, value: text)
            } catch {
                // Keep showing the last good version rather than dropping a stroke nobody can read.
                if let key = StrokeKey(rawValue: rawKey), synced[key] != nil { seen.insert(key) }
                update.problems.append(error)
                continue
            }
            seen.insert(encoded.key)
            synced[encoded.key] = encoded
            update.changed[encoded.key] = .some(encoded.group)
        }
        for key in synced.keys where !seen.contains(key) {
            synced[key] = nil
            update.changed[key] = .some(nil)
        }
        update.problems.sort { $0.description < $1.description }
        return update
    }

    /// The synchronized drawing, groups in key order (z-order).
    public func drawing() -> [StrokeGroup] {
        synced.keys.sorted().compactMap { synced[$0]?.group }
    }
}

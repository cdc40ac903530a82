import ReplicaCore
import StrokeKit

/// What the coordinator last synchronized for one drawing: per stroke key, the group and its
/// stored form (the value of the stroke as drawn and the value of each sweep).
///
/// From the canvas it computes the entries to write, the keys to remove and the keys that are
/// new; it records a flush optimistically and rolls it back when the transaction fails, so the
/// next flush finds the same changes again; and it takes in the replica's `strokes` and `sweeps`
/// maps (see `update(_:)`).
public struct DrawingModel: Sendable {
    /// The result of comparing the canvas with the synchronized state.
    public struct Changes: Equatable, Sendable {
        /// New or changed groups, with their stored forms: in a table of forms by their own key
        /// (`StrokeKeyTable`), since a whole drawing's first flush holds 100,000 of them, which a
        /// dictionary kept beside their keys in twice as many buckets (23 MB at its peak).
        public var upserts = StrokeKeyTable<EncodedGroup>()
        /// Keys whose groups are gone from the canvas.
        public var removals: Set<StrokeKey> = []
        /// The keys among `upserts` that were never synchronized.
        public var newKeys: Set<StrokeKey> = []
        /// The upserts whose stroke as drawn is written (new groups, or a base that changed).
        public var baseWrites: Set<StrokeKey> = []
        /// Per upsert, the sweeps written (new ones, or ones whose value changed).
        public var sweepWrites: [StrokeKey: Set<SweepKey>] = [:]
        /// Per upsert, the sweeps removed (an undone erase).
        public var sweepRemovals: [StrokeKey: Set<SweepKey>] = [:]

        public var isEmpty: Bool { upserts.isEmpty && removals.isEmpty }

        /// How many map entries the flush sets or unsets: one per base written, per sweep
        /// written or removed, and per group removed.
        public var entryCount: Int {
            baseWrites.count + sweepWrites.values.reduce(0) { $0 + $1.count }
                + sweepRemovals.values.reduce(0) { $0 + $1.count } + removals.count
        }
    }

    /// What `persistPending` replaced, so `rollback` can put it back: the forms it replaced, and
    /// the keys it added (the changes' new keys, shared, so a first flush of a whole drawing
    /// keeps no second map of it).
    public struct Pending: Sendable {
        fileprivate var previous: [StrokeKey: EncodedGroup]
        fileprivate var added: Set<StrokeKey>
    }

    /// What the replica's maps changed in the model: per key the new group, or nil when removed.
    public struct StoreUpdate: Sendable {
        public var changed: [StrokeKey: StrokeGroup?] = [:]
        /// The synchronized group each changed key held before, where it held one.
        public var previous: [StrokeKey: StrokeGroup] = [:]
        /// Entries that could not be read; they are left out of the drawing.
        public var problems: [StoredGroupProblem] = []
    }

    public internal(set) var synced = StrokeKeyTable<EncodedGroup>()
    /// The replica's entries, per raw stroke key, where they are not exactly those of the
    /// synchronized form (`synced`'s value and sweep values): an entry that cannot be read, a
    /// sweep under a key with no stroke. With `synced` this is what the replica held when last
    /// read (`storedEntry(_:)`), what `update(_:)` rebuilds a group from when only one of its
    /// entries changes; a drawing whose entries all decode keeps nothing here, not a second map
    /// of every stroke.
    var unmatched: [String: StoredEntry] = [:]
    /// How many times `changes` encoded a stroke as drawn (unchanged ones are never re-encoded,
    /// and an erase encodes only its sweep).
    public internal(set) var encodeCount = 0
    /// How many sweeps `changes` encoded.
    public internal(set) var sweepEncodeCount = 0
    /// How many stored entries the updates have read so far: a change of one entry should cost
    /// one read, not one per stroke of the drawing.
    public internal(set) var readCount = 0

    public init() {}

    /// Makes room for `count` stroke keys in the synchronized state, so a drawing taken in a
    /// slice at a time (a staged open) grows its map once: a map of 100,000 groups that doubles
    /// while it fills rehashes every key it holds, in one slice, and holds the old and the new
    /// table at once.
    public mutating func reserveCapacity(_ count: Int) {
        synced.reserveCapacity(count)
    }

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
            let encoded = EncodedGroup(group, reusing: known)
            if known?.group.base != group.base { encodeCount += 1 }
            let writesBase = known?.storedBytes != encoded.storedBytes
            var sweepWrites: Set<SweepKey> = []
            for (sweepKey, value) in encoded.sweepValues where known?.sweepValues[sweepKey] != value {
                sweepWrites.insert(sweepKey)
                if known?.group.sweeps[sweepKey] != group.sweeps[sweepKey] { sweepEncodeCount += 1 }
            }
            let sweepRemovals = Set(known?.sweepValues.keys.filter { encoded.sweepValues[$0] == nil } ?? [])
            guard writesBase || !sweepWrites.isEmpty || !sweepRemovals.isEmpty else { continue }
            changes.upserts[key] = encoded
            if known == nil { changes.newKeys.insert(key) }
            if writesBase { changes.baseWrites.insert(key) }
            if !sweepWrites.isEmpty { changes.sweepWrites[key] = sweepWrites }
            if !sweepRemovals.isEmpty { changes.sweepRemovals[key] = sweepRemovals }
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
        var previous: [StrokeKey: EncodedGroup] = [:]
        var added = changes.newKeys
        for (key, encoded) in changes.upserts {
            if let replaced = synced.updateValue(encoded, forKey: key) {
                previous[key] = replaced
            } else if !added.contains(key) {
                added.insert(key)
            }
        }
        return Pending(previous: previous, added: added)
    }

    /// Undoes `persistPending` after a failed transaction.
    public mutating func rollback(_ pending: Pending) {
        for key in pending.added where pending.previous[key] == nil { synced[key] = nil }
        for (key, previous) in pending.previous {
            synced[key] = previous
        }
    }

    /// Forgets keys whose removal has committed.
    public mutating func applyRemoves(_ keys: some Sequence<StrokeKey>) {
        for key in keys { synced[key] = nil }
    }

    /// The synchronized drawing, groups in key order (z-order).
    public func drawing() -> [StrokeGroup] {
        synced.keys.sorted().compactMap { synced[$0]?.group }
    }
}

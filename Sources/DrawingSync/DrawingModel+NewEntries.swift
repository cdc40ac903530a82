import ReplicaCore
import StrokeKit

/// Taking in strokes the model has never held: a staged open's first region and its slices.
///
/// `update(_:)` takes each key in turn with what the model knew of it (its synchronized form and
/// its unmatched entries, both looked up by key) and reports each change in maps by key. For a
/// key the model holds nothing of, all of that is known to be empty, so this takes the entries
/// as a list and hands the groups back as one: per stroke one parse of its key, its decoding
/// and one insertion into `synced`, where the general path hashed the key six times.
extension DrawingModel {
    /// One stroke as the replica holds it: its raw key, the stroke as drawn and, if it has any,
    /// the map of its sweeps.
    public struct NewEntry: Sendable {
        public var rawKey: String
        public var base: DocumentValue
        public var sweepMap: DocumentValue?

        public init(rawKey: String, base: DocumentValue, sweepMap: DocumentValue? = nil) {
            self.rawKey = rawKey
            self.base = base
            self.sweepMap = sweepMap
        }

        /// This entry, moved out; an empty one is left in its place (nothing is retained).
        mutating func take() -> NewEntry {
            var taken = NewEntry(rawKey: "", base: .null)
            swap(&taken, &self)
            return taken
        }
    }

    /// What `takeNew(_:)` made: the groups, in the order of the entries, and the entries that
    /// could not be read (sorted, as `update(_:)` sorts them).
    public struct NewGroups: Sendable {
        public var groups: [StrokeGroup] = []
        public var problems: [StoredGroupProblem] = []
    }

    /// Takes in the entries of strokes the model holds nothing of (neither a synchronized form
    /// nor unmatched entries under their keys, and no two entries under one key): the same as
    /// `update(_:)` of the same entries, which would report every group decoded as changed.
    public mutating func takeNew(_ entries: [NewEntry]) -> NewGroups {
        var result = NewGroups()
        result.groups.reserveCapacity(entries.count)
        for new in entries {
            let key = StrokeKey(rawValue: new.rawKey)
            assert(unmatched[new.rawKey] == nil && key.flatMap { synced[$0] } == nil, "a key the model holds")
            var entry = StoredEntry(base: new.base)
            readCount += 1
            if let sweepMap = new.sweepMap {
                readCount += 1
                if case .object(let sweeps) = sweepMap {
                    entry.sweeps = sweeps
                } else {
                    result.problems.append(.sweepNotAString(key: new.rawKey, sweepKey: nil))
                }
            }
            guard
                let encoded = Self.decodedForm(
                    new.rawKey, key, from: entry, known: nil, problems: &result.problems)
            else {
                unmatched[new.rawKey] = entry
                continue
            }
            synced[encoded.key] = encoded
            result.groups.append(encoded.group)
            if !entry.isShown(by: encoded) { unmatched[new.rawKey] = entry }
        }
        result.problems.sort { $0.description < $1.description }
        return result
    }
}

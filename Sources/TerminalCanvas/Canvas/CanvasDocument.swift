import StrokeKit
import Synchronization

/// Hands out revision numbers no two document states share, across every copy.
private let revisions = Atomic<UInt64>(0)

/// The drawing as the canvas edits it: stroke groups by key, plus the set of keys changed by local
/// edits since the coordinator last took them.
///
/// Every local edit goes through `setGroup(_:for:)` (or the helpers built on it), which records
/// the key only when the value really changes; the coordinator drains the keys with
/// `takeChangedKeys()` when it flushes. Content arriving from the replica goes through
/// `replaceFromReplica(_:keepingLocal:)`, which marks nothing, so a remote change is never sent
/// back as a local edit.
public struct CanvasDocument: Equatable, Sendable {
    private var groupsByKey: [StrokeKey: StrokeGroup]
    /// The keys in order, kept up to date by every change of `groupsByKey` (a frame asks for the
    /// groups in order, and sorting 10,000 keys per frame was most of the cost of drawing it).
    private var orderedKeys: [StrokeKey] = []
    /// Keys edited locally and not yet taken by the coordinator.
    public private(set) var changedKeys: Set<StrokeKey> = []
    /// Changes whenever the groups do, to a number no other state of any document has had: two
    /// documents with the same revision hold the same groups (a cached rendering can rely on it).
    public private(set) var revision: UInt64 = CanvasDocument.nextRevision()
    /// The latest revisions and what each changed, oldest first, so a cached rendering can catch
    /// up with a few new strokes instead of starting over (`additions(since:)`).
    private var journal: [Change] = []

    /// One step from one revision to the next.
    private struct Change: Sendable {
        var from: UInt64
        var key: StrokeKey
        /// The key was absent before this step and is present after it.
        var added: Bool
    }

    /// How many steps the journal keeps: enough for the strokes that arrive between two frames.
    public static let journalLimit = 64

    /// A document holding `groups` with nothing marked changed. Of two groups with one key, the
    /// later one is kept.
    public init(groups: [StrokeGroup] = []) {
        groupsByKey = Dictionary(groups.map { ($0.key, $0) }, uniquingKeysWith: { _, later in later })
        orderedKeys = groupsByKey.keys.sorted()
    }

    public static func == (lhs: CanvasDocument, rhs: CanvasDocument) -> Bool {
        lhs.groupsByKey == rhs.groupsByKey && lhs.changedKeys == rhs.changedKeys
    }

    /// The groups added since `revision`, in key order, if that is all that happened since (no
    /// group changed or removed) and the journal reaches back that far; nil otherwise.
    public func additions(since revision: UInt64) -> [StrokeGroup]? {
        if revision == self.revision { return [] }
        guard let start = journal.lastIndex(where: { $0.from == revision }) else { return nil }
        var keys: [StrokeKey] = []
        for change in journal[start...] {
            guard change.added else { return nil }
            keys.append(change.key)
        }
        return keys.sorted().compactMap { groupsByKey[$0] }
    }

    /// Every group in key order (bottom first: the order they are drawn in).
    public var groups: [StrokeGroup] {
        keys.compactMap { groupsByKey[$0] }
    }

    /// Every key, sorted.
    public var keys: [StrokeKey] { orderedKeys }

    public var count: Int { groupsByKey.count }
    public var isEmpty: Bool { groupsByKey.isEmpty }

    /// The group stored under a key, if any.
    public subscript(key: StrokeKey) -> StrokeGroup? { groupsByKey[key] }

    /// A local edit: stores `group` under `key` (nil removes it). The key is marked changed only
    /// if the stored value differs afterwards. A group whose own key is not `key` is refused,
    /// since the map key and the group key must agree; the result says whether anything changed.
    @discardableResult
    public mutating func setGroup(_ group: StrokeGroup?, for key: StrokeKey) -> Bool {
        guard group.map({ $0.key == key }) ?? true, groupsByKey[key] != group else { return false }
        store(group, for: key)
        changedKeys.insert(key)
        return true
    }

    /// A local edit: adds or replaces a group under its own key.
    @discardableResult
    public mutating func insert(_ group: StrokeGroup) -> Bool {
        setGroup(group, for: group.key)
    }

    /// A local edit: removes a group; returns what was removed.
    @discardableResult
    public mutating func removeGroup(for key: StrokeKey) -> StrokeGroup? {
        let removed = groupsByKey[key]
        setGroup(nil, for: key)
        return removed
    }

    /// Hands the changed keys to the coordinator and forgets them.
    public mutating func takeChangedKeys() -> Set<StrokeKey> {
        defer { changedKeys = [] }
        return changedKeys
    }

    /// Replaces the content with what the replica holds, without marking anything changed.
    ///
    /// For every key in `keepingLocal`, and every key still in `changedKeys`, the local state
    /// wins: a local group stays as it is, and a key with no local group (a local erase or
    /// delete) stays absent even if the replica still has it. Edits the coordinator has not
    /// flushed are therefore never undone by an inbound change. Of two replica groups with one
    /// key, the later one is kept.
    public mutating func replaceFromReplica(_ groups: [StrokeGroup], keepingLocal keys: Set<StrokeKey> = []) {
        var next = Dictionary(groups.map { ($0.key, $0) }, uniquingKeysWith: { _, later in later })
        for key in keys.union(changedKeys) {
            next[key] = groupsByKey[key]
        }
        groupsByKey = next
        orderedKeys = next.keys.sorted()
        revision = Self.nextRevision()
        journal = []
    }

    /// Takes in only what changed in the replica (per key the new group, or nil when it is gone),
    /// without marking anything; keys in `keepingLocal` or still in `changedKeys` keep their local
    /// state, as in `replaceFromReplica`. The cost follows the change, not the drawing.
    public mutating func applyFromReplica(
        _ changes: [StrokeKey: StrokeGroup?], keepingLocal keys: Set<StrokeKey> = []
    ) {
        for (key, group) in changes where !keys.contains(key) && !changedKeys.contains(key) {
            guard group.map({ $0.key == key }) ?? true else { continue }
            store(group, for: key)
        }
    }

    /// Stores or removes a group, keeping `orderedKeys` sorted.
    private mutating func store(_ group: StrokeGroup?, for key: StrokeKey) {
        let wasPresent = groupsByKey[key] != nil
        groupsByKey[key] = group
        let previous = revision
        revision = Self.nextRevision()
        journal.append(Change(from: previous, key: key, added: !wasPresent && group != nil))
        if journal.count > Self.journalLimit { journal.removeFirst(journal.count - Self.journalLimit) }
        guard wasPresent != (group != nil) else { return }
        let index = Self.insertionIndex(of: key, in: orderedKeys)
        if group != nil {
            orderedKeys.insert(key, at: index)
        } else if index < orderedKeys.count, orderedKeys[index] == key {
            orderedKeys.remove(at: index)
        }
    }

    private static func nextRevision() -> UInt64 {
        revisions.add(1, ordering: .relaxed).newValue
    }

    /// The first index in sorted `keys` whose key is not below `key`.
    private static func insertionIndex(of key: StrokeKey, in keys: [StrokeKey]) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

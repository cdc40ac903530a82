import StrokeKit

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
    /// Keys edited locally and not yet taken by the coordinator.
    public private(set) var changedKeys: Set<StrokeKey> = []

    /// A document holding `groups` with nothing marked changed. Of two groups with one key, the
    /// later one is kept.
    public init(groups: [StrokeGroup] = []) {
        groupsByKey = Dictionary(groups.map { ($0.key, $0) }, uniquingKeysWith: { _, later in later })
    }

    /// Every group in key order (bottom first: the order they are drawn in).
    public var groups: [StrokeGroup] {
        groupsByKey.keys.sorted().compactMap { groupsByKey[$0] }
    }

    /// Every key, sorted.
    public var keys: [StrokeKey] { groupsByKey.keys.sorted() }

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
        groupsByKey[key] = group
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
    }
}

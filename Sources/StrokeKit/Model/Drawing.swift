/// The open drawing: its stroke groups by key, in key order (z-order), and a short journal of
/// what changed, step by step.
///
/// One value of this type is the drawing while it is open: the coordinator owns it, the editor
/// changes it inside `DrawingSyncCoordinator.edit`, changes from the replica go straight into
/// it, and frames are rendered from it. Every change goes through `setGroup(_:for:)` and moves
/// `revision` on by one; the journal lets a reader that saw an earlier revision catch up with
/// what changed since (the coordinator learns which keys an edit touched, a cached raster layer
/// which strokes to add) instead of comparing the whole drawing.
public struct Drawing: Equatable, Sendable {
    private var groupsByKey: [StrokeKey: StrokeGroup]
    /// The keys in order, kept up to date by every change of `groupsByKey` (a frame asks for the
    /// groups in order, and sorting 10,000 keys per frame was most of the cost of drawing it).
    private var orderedKeys: [StrokeKey] = []
    /// Moves on by one with every change. Revisions order the states of one drawing; two
    /// drawings (or two copies of one, changed apart) are not told apart by them.
    public private(set) var revision: UInt64 = 0
    /// The latest steps, oldest first.
    private var journal: [Change] = []
    /// Where each group may have ink, kept up to date by every change of `groupsByKey`.
    public private(set) var spatialIndex = SpatialIndex()

    /// One step from one revision to the next: one group changed, or several added at once.
    private struct Change: Sendable {
        var from: UInt64
        /// The key changed; one, except for a step of `insert(contentsOf:)`.
        var keys: [StrokeKey]
        /// The keys were absent before this step and are present after it.
        var added: Bool
        /// The groups' bounds before and after the step (where they were or are present).
        var regions: [CellRect]
    }

    /// How many steps the journal keeps: enough for the strokes that arrive between two frames
    /// and for an ordinary edit; a reader further behind compares instead.
    public static let journalLimit = 64

    /// A drawing holding `groups`. Of two groups with one key, the later one is kept.
    public init(groups: [StrokeGroup] = []) {
        groupsByKey = Dictionary(groups.map { ($0.key, $0) }, uniquingKeysWith: { _, later in later })
        orderedKeys = groupsByKey.keys.sorted()
        spatialIndex.reserveCapacity(groupsByKey.count)
        for (key, group) in groupsByKey { spatialIndex.update(key, to: group) }
    }

    /// Two drawings are equal when they hold the same groups, whatever their history.
    public static func == (lhs: Drawing, rhs: Drawing) -> Bool {
        lhs.groupsByKey == rhs.groupsByKey
    }

    /// Every group in key order (bottom first: the order they are drawn in).
    public var groups: [StrokeGroup] {
        orderedKeys.compactMap { groupsByKey[$0] }
    }

    /// Every key, sorted.
    public var keys: [StrokeKey] { orderedKeys }

    public var count: Int { groupsByKey.count }
    public var isEmpty: Bool { groupsByKey.isEmpty }

    /// The group stored under a key, if any.
    public subscript(key: StrokeKey) -> StrokeGroup? { groupsByKey[key] }

    /// Stores `group` under `key` (nil removes it). A group whose own key is not `key` is
    /// refused, since the map key and the group key must agree; the result says whether anything
    /// changed (an equal value changes nothing and keeps the revision).
    @discardableResult
    public mutating func setGroup(_ group: StrokeGroup?, for key: StrokeKey) -> Bool {
        guard group.map({ $0.key == key }) ?? true, groupsByKey[key] != group else { return false }
        let wasPresent = groupsByKey[key] != nil
        groupsByKey[key] = group
        let bounds = spatialIndex.update(key, to: group)
        record(
            Change(
                from: revision, keys: [key], added: !wasPresent && group != nil,
                regions: [bounds.old, bounds.new].compactMap { $0 }))
        guard wasPresent != (group != nil) else { return true }
        let index = Self.insertionIndex(of: key, in: orderedKeys)
        if group != nil {
            orderedKeys.insert(key, at: index)
        } else if index < orderedKeys.count, orderedKeys[index] == key {
            orderedKeys.remove(at: index)
        }
        return true
    }

    /// Adds or replaces a group under its own key.
    @discardableResult
    public mutating func insert(_ group: StrokeGroup) -> Bool {
        setGroup(group, for: group.key)
    }

    /// Makes room for `count` groups, so a drawing filled a slice at a time (a staged open)
    /// grows its maps once instead of rehashing them all as it grows.
    public mutating func reserveCapacity(_ count: Int) {
        groupsByKey.reserveCapacity(count)
        orderedKeys.reserveCapacity(count)
        spatialIndex.reserveCapacity(count)
    }

    /// Adds groups whose keys the drawing does not hold yet, as one step (a part of a drawing
    /// loaded after its first frame): a reader of the journal learns every key and its bounds,
    /// however many there are. Groups under keys already held are left out; the result says
    /// whether any was added.
    @discardableResult
    public mutating func insert(contentsOf groups: [StrokeGroup]) -> Bool {
        var added: [StrokeKey] = []
        var regions: [CellRect] = []
        for group in groups where groupsByKey[group.key] == nil {
            groupsByKey[group.key] = group
            added.append(group.key)
            if let bounds = spatialIndex.update(group.key, to: group).new { regions.append(bounds) }
        }
        guard !added.isEmpty else { return false }
        record(Change(from: revision, keys: added, added: true, regions: regions))
        Self.merge(added.sorted(), into: &orderedKeys)
        return true
    }

    /// Merges sorted keys none of which `keys` holds into sorted `keys`, in place and from the
    /// back: each run of keys above a new one is moved once, as raw memory, so a slice of a
    /// large drawing costs a move of the keys above its lowest one, not a copy (and a reference
    /// count) of every key, nor a move of the keys above each new one per key.
    private static func merge(_ added: [StrokeKey], into keys: inout [StrokeKey]) {
        guard let lowest = added.first else { return }
        let oldCount = keys.count
        guard let last = keys.last, lowest < last else {
            keys.append(contentsOf: added)
            return
        }
        keys.append(contentsOf: added)
        keys.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            // The copies just appended only make room: dropped, and the room filled from the back.
            (base + oldCount).deinitialize(count: added.count)
            var unplaced = oldCount
            var write = oldCount + added.count
            for key in added.reversed() {
                var start = unplaced
                while start > 0, key < base[start - 1] { start -= 1 }
                let above = unplaced - start
                write -= above
                (base + write).moveInitialize(from: base + start, count: above)
                write -= 1
                (base + write).initialize(to: key)
                unplaced = start
            }
        }
    }

    /// Appends a step to the journal (dropping the oldest past the limit) and moves on.
    private mutating func record(_ change: Change) {
        journal.append(change)
        if journal.count > Self.journalLimit { journal.removeFirst(journal.count - Self.journalLimit) }
        revision += 1
    }

    /// Removes a group; returns what was removed.
    @discardableResult
    public mutating func removeGroup(for key: StrokeKey) -> StrokeGroup? {
        let removed = groupsByKey[key]
        setGroup(nil, for: key)
        return removed
    }

    /// The keys changed since `revision` (an earlier revision of this drawing), if the journal
    /// reaches back that far; nil otherwise.
    public func changedKeys(since revision: UInt64) -> Set<StrokeKey>? {
        guard let steps = steps(since: revision) else { return nil }
        return Set(steps.lazy.flatMap(\.keys))
    }

    /// The groups whose ink may reach into `rect` (see `SpatialIndex`), in key order.
    public func groups(in rect: CellRect) -> [StrokeGroup] {
        spatialIndex.keys(in: rect).compactMap { groupsByKey[$0] }
    }

    /// Rectangles outside which no cell can look different from how it looked at `revision` (an
    /// earlier revision of this drawing): the old and new bounds of every group changed since, if
    /// the journal reaches back that far; nil otherwise.
    public func changedRegions(since revision: UInt64) -> [CellRect]? {
        guard let steps = steps(since: revision) else { return nil }
        return steps.flatMap(\.regions)
    }

    /// The groups added since `revision`, in key order, if that is all that happened since (no
    /// group changed or removed) and the journal reaches back that far; nil otherwise.
    public func additions(since revision: UInt64) -> [StrokeGroup]? {
        guard let steps = steps(since: revision) else { return nil }
        var keys: [StrokeKey] = []
        for change in steps {
            guard change.added else { return nil }
            keys.append(contentsOf: change.keys)
        }
        return keys.sorted().compactMap { groupsByKey[$0] }
    }

    /// The journal's steps after `revision`; nil when they are no longer all in it.
    private func steps(since revision: UInt64) -> ArraySlice<Change>? {
        if revision == self.revision { return [] }
        // The steps are consecutive: the one from `revision` sits at its distance from the first.
        guard revision < self.revision, let first = journal.first?.from, revision >= first else { return nil }
        return journal[(journal.startIndex + Int(revision - first))...]
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

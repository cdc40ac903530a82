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
    /// Moves on by one with every change. Revisions order the states of one drawing; two
    /// drawings (or two copies of one, changed apart) are not told apart by them.
    public private(set) var revision: UInt64 = 0
    /// The latest steps, oldest first.
    private var journal: [Change] = []
    /// The groups themselves, by key, in key order and by where they may have ink: the one
    /// copy of them (see `SpatialIndex`).
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
        spatialIndex = SpatialIndex(groups: groups)
    }

    /// Two drawings are equal when they hold the same groups, whatever their history.
    public static func == (lhs: Drawing, rhs: Drawing) -> Bool {
        lhs.count == rhs.count && lhs.spatialIndex.orderedGroups == rhs.spatialIndex.orderedGroups
    }

    /// Every group in key order (bottom first: the order they are drawn in).
    public var groups: [StrokeGroup] { spatialIndex.orderedGroups }

    /// Every key, sorted.
    public var keys: [StrokeKey] { spatialIndex.keys }

    /// The highest key (the topmost group's), if any.
    public var lastKey: StrokeKey? { spatialIndex.lastKey }

    public var count: Int { spatialIndex.count }
    public var isEmpty: Bool { spatialIndex.count == 0 }

    /// The group stored under a key, if any.
    public subscript(key: StrokeKey) -> StrokeGroup? { spatialIndex.group(for: key) }

    /// Stores `group` under `key` (nil removes it). A group whose own key is not `key` is
    /// refused, since the map key and the group key must agree; the result says whether anything
    /// changed (an equal value changes nothing and keeps the revision).
    @discardableResult
    public mutating func setGroup(_ group: StrokeGroup?, for key: StrokeKey) -> Bool {
        let current = spatialIndex.group(for: key)
        guard group.map({ $0.key == key }) ?? true, current != group else { return false }
        let wasPresent = current != nil
        let bounds = spatialIndex.update(key, to: group)
        record(
            Change(
                from: revision, keys: [key], added: !wasPresent && group != nil,
                regions: [bounds.old, bounds.new].compactMap { $0 }))
        return true
    }

    /// Adds or replaces a group under its own key.
    @discardableResult
    public mutating func insert(_ group: StrokeGroup) -> Bool {
        setGroup(group, for: group.key)
    }

    /// Removes a group; returns what was removed.
    @discardableResult
    public mutating func removeGroup(for key: StrokeKey) -> StrokeGroup? {
        let removed = self[key]
        setGroup(nil, for: key)
        return removed
    }

    /// Makes room for `count` groups, so a drawing filled a slice at a time (a staged open)
    /// grows its storage once instead of as it fills.
    public mutating func reserveCapacity(_ count: Int) {
        spatialIndex.reserveCapacity(count)
    }

    /// Adds groups whose keys the drawing does not hold yet, as one step (a part of a drawing
    /// loaded after its first frame): a reader of the journal learns every key and its bounds,
    /// however many there are. Groups under keys already held are left out; the result says
    /// whether any was added.
    @discardableResult
    public mutating func insert(contentsOf groups: [StrokeGroup]) -> Bool {
        let added = spatialIndex.insertNew(groups)
        guard !added.keys.isEmpty else { return false }
        record(Change(from: revision, keys: added.keys, added: true, regions: added.regions))
        return true
    }

    /// Appends a step to the journal (dropping the oldest past the limit) and moves on.
    private mutating func record(_ change: Change) {
        journal.append(change)
        if journal.count > Self.journalLimit { journal.removeFirst(journal.count - Self.journalLimit) }
        revision += 1
    }

    /// The keys changed since `revision` (an earlier revision of this drawing), if the journal
    /// reaches back that far; nil otherwise.
    public func changedKeys(since revision: UInt64) -> Set<StrokeKey>? {
        guard let steps = steps(since: revision) else { return nil }
        return Set(steps.lazy.flatMap(\.keys))
    }

    /// The groups whose ink may reach into `rect` (see `SpatialIndex`), in key order.
    public func groups(in rect: CellRect) -> [StrokeGroup] {
        spatialIndex.groups(in: rect)
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
        return keys.sorted().compactMap { self[$0] }
    }

    /// The journal's steps after `revision`; nil when they are no longer all in it.
    private func steps(since revision: UInt64) -> ArraySlice<Change>? {
        if revision == self.revision { return [] }
        // The steps are consecutive: the one from `revision` sits at its distance from the first.
        guard revision < self.revision, let first = journal.first?.from, revision >= first else { return nil }
        return journal[(journal.startIndex + Int(revision - first))...]
    }
}

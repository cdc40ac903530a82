import StrokeKit

/// One local action as undo sees it: the value of every group it replaced before and after, and
/// the sweeps it added.
///
/// A pen stroke is one change from nothing to the new group; a stroke-eraser drag is one change
/// per group it removed; a mask-eraser drag is one sweep per group it erased from (the groups
/// themselves are not replaced, so undo takes out that sweep and leaves everyone else's).
public struct UndoEntry: Equatable, Sendable {
    /// How one group changed. `nil` is "no such group".
    public struct GroupChange: Equatable, Sendable {
        public let key: StrokeKey
        public let before: StrokeGroup?
        public let after: StrokeGroup?

        public init(key: StrokeKey, before: StrokeGroup?, after: StrokeGroup?) {
            self.key = key
            self.before = before
            self.after = after
        }
    }

    /// A sweep the action added to a group: undo removes it, redo puts it back.
    public struct SweepChange: Equatable, Sendable {
        public let key: StrokeKey
        public let sweepKey: SweepKey
        public let mask: StrokeMask

        public init(key: StrokeKey, sweepKey: SweepKey, mask: StrokeMask) {
            self.key = key
            self.sweepKey = sweepKey
            self.mask = mask
        }
    }

    /// A move of a group: where its stroke as drawn was placed before and after (one transform
    /// per piece). Undo puts the old place back while the group is still where the move left it,
    /// whatever sweeps it gained meanwhile (they move with it); redo the same the other way.
    public struct MoveChange: Equatable, Sendable {
        public let key: StrokeKey
        public let before: [StrokeTransform]
        public let after: [StrokeTransform]

        public init(key: StrokeKey, before: [StrokeTransform], after: [StrokeTransform]) {
            self.key = key
            self.before = before
            self.after = after
        }
    }

    /// In the order the groups were first touched.
    public let changes: [GroupChange]
    /// In the order the groups were first touched.
    public let sweeps: [SweepChange]
    /// In the order the groups were first touched.
    public let moves: [MoveChange]

    /// An entry; nil when nothing actually changed (nothing to undo).
    public init?(changes: [GroupChange], sweeps: [SweepChange] = [], moves: [MoveChange] = []) {
        let real = changes.filter { $0.before != $0.after }
        let added = sweeps.filter { !$0.mask.isEmpty }
        let moved = moves.filter { $0.before != $0.after }
        guard !real.isEmpty || !added.isEmpty || !moved.isEmpty else { return nil }
        self.changes = real
        self.sweeps = added
        self.moves = moved
    }
}

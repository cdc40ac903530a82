import StrokeKit

/// One local action as undo sees it: the value of every group it touched before and after.
///
/// A pen stroke is one change from nothing to the new group; an erase drag is one change per
/// group it cut, masked or removed; a stroke-eraser drag is one change per group it removed.
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

    /// Never empty; in the order the groups were first touched.
    public let changes: [GroupChange]

    /// An entry; nil when no group actually changed (nothing to undo).
    public init?(changes: [GroupChange]) {
        let real = changes.filter { $0.before != $0.after }
        guard !real.isEmpty else { return nil }
        self.changes = real
    }
}

import StrokeKit

/// Undo and redo of this peer's own actions.
///
/// Each entry holds the before and after values of the groups one action replaced, and the sweeps
/// it added. Undo puts a group back to its before value only if it still holds exactly the after
/// value; a group that someone else changed (or removed, or that the replica replaced) since is
/// left alone and reported, so undo never reverts another peer's work. An erase is undone by
/// taking its own sweep out of each group that still has it, whatever other sweeps the group
/// gained since; a group removed since is reported. Redo works the same way in the other
/// direction, on what the undo actually restored. A new action clears the redo stack.
public struct UndoStack: Equatable, Sendable {
    public private(set) var undoEntries: [UndoEntry] = []
    public private(set) var redoEntries: [UndoEntry] = []
    /// The changes the last undo left alone because someone else changed them since: the next
    /// undo applies them anyway (on top of the other peer's change) instead of reaching past
    /// them to an older action. Any new action or a redo forgets them.
    public private(set) var leftAloneByLastUndo: UndoEntry?
    /// The most actions kept; the oldest are forgotten first.
    public let limit: Int

    public init(limit: Int = 200) {
        self.limit = max(1, limit)
    }

    public var canUndo: Bool { !undoEntries.isEmpty }
    public var canRedo: Bool { !redoEntries.isEmpty }

    /// Records a new local action; the redo stack is cleared.
    public mutating func record(_ entry: UndoEntry) {
        undoEntries.append(entry)
        if undoEntries.count > limit { undoEntries.removeFirst(undoEntries.count - limit) }
        redoEntries.removeAll()
        leftAloneByLastUndo = nil
    }

    /// Reverts the latest action in `drawing` (a local edit: the keys are marked changed).
    public mutating func undo(in drawing: inout Drawing) -> UndoOutcome {
        if let forced = leftAloneByLastUndo {
            leftAloneByLastUndo = nil
            // Redo puts back what the other peer had made of the groups, if still there.
            var changes: [UndoEntry.GroupChange] = []
            var restored: [StrokeKey] = []
            for change in forced.changes.reversed() {
                let current = drawing[change.key]
                let target = Self.forcedValue(of: change, over: current)
                guard target != current else { continue }
                changes.insert(.init(key: change.key, before: target, after: current), at: 0)
                _ = drawing.setGroup(target, for: change.key)
                restored.append(change.key)
            }
            var moves: [UndoEntry.MoveChange] = []
            for move in forced.moves {
                guard let group = drawing[move.key], group.baseTransforms != move.before else { continue }
                moves.append(.init(key: move.key, before: move.before, after: group.baseTransforms))
                drawing.setGroup(group.settingBaseTransforms(move.before), for: move.key)
                restored.append(move.key)
            }
            if let done = UndoEntry(changes: changes, moves: moves) { redoEntries.append(done) }
            return .applied(.undo, restored: restored, skipped: [])
        }
        guard let entry = undoEntries.popLast() else { return .nothingToDo(.undo) }
        let (done, restored, skipped) = Self.apply(entry, reversed: true, to: &drawing)
        if let done { redoEntries.append(done) }
        // Only what a second undo would change is offered (see `forcedValue`).
        leftAloneByLastUndo = UndoEntry(
            changes: entry.changes.filter {
                skipped.contains($0.key) && Self.forcedValue(of: $0, over: drawing[$0.key]) != drawing[$0.key]
            },
            // A move someone else changed since: a second undo puts the old place back (while the
            // stroke is there), with the sweeps it has now.
            moves: entry.moves.filter { move in
                skipped.contains(move.key)
                    && drawing[move.key].map { $0.baseTransforms != move.before } == true
            })
        return .applied(
            .undo, restored: restored, skipped: skipped, offersForce: leftAloneByLastUndo != nil)
    }

    /// What a second undo makes of a group someone else changed since the action (see
    /// DECISIONS.md, "A second undo never undoes a peer's removal or erasure"): the undo of one's
    /// own new stroke removes it (as the stroke eraser would, its sweeps with it); a stroke a peer
    /// removed stays removed (a removal wins); a removal of one's own whose stroke is back (a peer
    /// put it back) leaves it as it is; any other change puts back the stroke as it was before
    /// the action with the sweeps it carries now, so no peer's erasure is taken out or brought
    /// back.
    static func forcedValue(of change: UndoEntry.GroupChange, over current: StrokeGroup?) -> StrokeGroup? {
        guard let before = change.before else { return nil }
        guard let current, change.after != nil else { return current }
        return StrokeGroup(key: change.key, base: before.base, sweeps: current.sweeps) ?? current
    }

    /// Reapplies the latest undone action in `drawing`.
    public mutating func redo(in drawing: inout Drawing) -> UndoOutcome {
        leftAloneByLastUndo = nil
        guard let entry = redoEntries.popLast() else { return .nothingToDo(.redo) }
        let (done, restored, skipped) = Self.apply(entry, reversed: false, to: &drawing)
        if let done { undoEntries.append(done) }
        return .applied(.redo, restored: restored, skipped: skipped)
    }

    /// Moves each group of `entry` from one side to the other where it still holds the value
    /// the action left, and takes out (or puts back) each of its sweeps where the group is still
    /// there; returns the entry of what moved (for the opposite stack) and the keys.
    private static func apply(_ entry: UndoEntry, reversed: Bool, to drawing: inout Drawing)
        -> (UndoEntry?, restored: [StrokeKey], skipped: [StrokeKey])
    {
        var moved: [UndoEntry.GroupChange] = []
        var movedSweeps: [UndoEntry.SweepChange] = []
        var skipped: [StrokeKey] = []
        // Undo walks the changes backwards, so an action touching a group twice unwinds in order.
        for change in reversed ? Array(entry.changes.reversed()) : entry.changes {
            let expected = reversed ? change.after : change.before
            let target = reversed ? change.before : change.after
            guard drawing[change.key] == expected else {
                skipped.append(change.key)
                continue
            }
            drawing.setGroup(target, for: change.key)
            moved.append(change)
        }
        for sweep in entry.sweeps {
            guard let group = drawing[sweep.key],
                group.sweeps[sweep.sweepKey] == (reversed ? sweep.mask : nil)
            else {
                skipped.append(sweep.key)
                continue
            }
            drawing.setGroup(
                group.settingSweep(reversed ? nil : sweep.mask, for: sweep.sweepKey), for: sweep.key)
            movedSweeps.append(sweep)
        }
        var movedPlaces: [UndoEntry.MoveChange] = []
        for move in entry.moves {
            guard let group = drawing[move.key], group.baseTransforms == (reversed ? move.after : move.before)
            else {
                skipped.append(move.key)
                continue
            }
            drawing.setGroup(group.settingBaseTransforms(reversed ? move.before : move.after), for: move.key)
            movedPlaces.append(move)
        }
        let ordered = reversed ? Array(moved.reversed()) : moved
        return (
            UndoEntry(changes: ordered, sweeps: movedSweeps, moves: movedPlaces),
            moved.map(\.key) + movedSweeps.map(\.key) + movedPlaces.map(\.key), skipped
        )
    }
}

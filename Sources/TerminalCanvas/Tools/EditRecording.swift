import StrokeKit

/// Collects the before-values of the groups one gesture touches, so that when the gesture ends it
/// becomes one `UndoEntry` with the values before and after.
struct EditRecording: Sendable {
    private var keys: [StrokeKey] = []
    private var before: [StrokeKey: StrokeGroup] = [:]

    /// Remembers the value of `key` in `drawing` unless this recording already holds one: the
    /// value before the gesture's first edit of the group is what undo restores.
    mutating func noteBefore(_ key: StrokeKey, in drawing: Drawing) {
        guard !keys.contains(key) else { return }
        keys.append(key)
        before[key] = drawing[key]
    }

    /// The entry for everything recorded, with the drawing's current values as "after"; nil
    /// when nothing ended up different.
    func entry(in drawing: Drawing) -> UndoEntry? {
        UndoEntry(
            changes: keys.map { UndoEntry.GroupChange(key: $0, before: before[$0], after: drawing[$0]) })
    }
}

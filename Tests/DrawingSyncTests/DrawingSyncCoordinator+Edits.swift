import DrawingSync
import StrokeKit

extension DrawingSyncCoordinator {
    /// One edit that puts these groups under their keys (nil removes one), as the editor's
    /// gestures do inside `edit(now:_:)`.
    func edit(_ edits: [StrokeKey: StrokeGroup?], now: Int64) {
        edit(now: now) { drawing in
            for (key, group) in edits { drawing.setGroup(group, for: key) }
        }
    }
}

import StrokeKit

/// What an undo or redo did, with the line the status bar shows.
public enum UndoOutcome: Equatable, Sendable {
    public enum Direction: Hashable, Sendable {
        case undo, redo
    }

    /// The stack was empty.
    case nothingToDo(Direction)
    /// Groups put back (`restored`), and groups left alone because someone else changed them
    /// after this action (`skipped`).
    case applied(Direction, restored: [StrokeKey], skipped: [StrokeKey])

    /// The status bar's line.
    public var message: String {
        switch self {
        case .nothingToDo(.undo): return "nothing to undo"
        case .nothingToDo(.redo): return "nothing to redo"
        case .applied(let direction, let restored, let skipped):
            let verb = direction == .undo ? "undone" : "redone"
            guard !skipped.isEmpty else { return verb }
            let kept = skipped.count == 1 ? "1 stroke" : "\(skipped.count) strokes"
            let head = restored.isEmpty ? "not \(verb)" : "\(verb) in part"
            return "\(head): \(kept) changed by someone else since, left as is"
        }
    }
}

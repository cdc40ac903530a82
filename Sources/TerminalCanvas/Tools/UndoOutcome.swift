import StrokeKit

/// What an undo or redo did, with the line the status bar shows.
public enum UndoOutcome: Equatable, Sendable {
    /// Which of the two was asked for. (Not a `Direction`: that is a step on the cell grid.)
    public enum Operation: Hashable, Sendable {
        case undo, redo
    }

    /// The stack was empty.
    case nothingToDo(Operation)
    /// Groups put back (`restored`), and groups left alone because someone else changed them
    /// after this action (`skipped`); `offersForce`: a second undo would undo some of them anyway.
    case applied(Operation, restored: [StrokeKey], skipped: [StrokeKey], offersForce: Bool = false)

    /// The status bar's line.
    public var message: String {
        switch self {
        case .nothingToDo(.undo): return "nothing to undo"
        case .nothingToDo(.redo): return "nothing to redo"
        case .applied(let operation, let restored, let skipped, let offersForce):
            let verb = operation == .undo ? "undone" : "redone"
            guard !skipped.isEmpty else { return verb }
            let kept = skipped.count == 1 ? "1 stroke" : "\(skipped.count) strokes"
            let head = restored.isEmpty ? "not \(verb)" : "\(verb) in part"
            // A second undo applies the rest anyway (see `UndoStack.leftAloneByLastUndo`).
            let choice = offersForce ? "; u again undoes it anyway" : ""
            return "\(head): \(kept) changed by someone else since, left as is\(choice)"
        }
    }
}

/// The gesture in progress between pen down and pen up, whichever tool makes it.
enum ToolGesture: Sendable {
    case drawing(PenStroke)
    case erasing(MaskErasePass)
    case removing(StrokeRemovalPass)
    case typing(TextEntry)
    case shaping(ShapeGesture)
    case selecting(SelectionBand)
    case movingSelection(SelectionMove)

    /// What put the pen down: it decides which events may end the gesture.
    enum Source: Hashable, Sendable {
        case pointer
        case keyboard
    }
}

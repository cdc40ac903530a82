/// The drawing tools a user can pick from the keyboard.
public enum ToolKind: Equatable, Hashable, Sendable, CaseIterable {
    /// Draws strokes.
    case pen
    /// Erases the parts of strokes under the brush.
    case maskEraser
    /// Removes every stroke the brush touches, whole.
    case strokeEraser

    /// The name the status bar shows when there is room.
    public var name: String {
        switch self {
        case .pen: "pen"
        case .maskEraser: "mask eraser"
        case .strokeEraser: "stroke eraser"
        }
    }

    /// The name the status bar falls back to in a narrow terminal.
    public var shortName: String {
        switch self {
        case .pen: "pen"
        case .maskEraser: "mask"
        case .strokeEraser: "erase"
        }
    }
}

/// The tool the pointer and the keyboard pen act with.
public enum CanvasTool: String, CaseIterable, Hashable, Sendable {
    /// Draws strokes (`p`).
    case pen
    /// Erases the parts of strokes the brush passes over, cutting them into pieces (`e`).
    case maskEraser
    /// Removes whole stroke groups: the topmost one under the pointer (`x`).
    case strokeEraser

    /// The short name the status bar and presence show.
    public var displayName: String {
        switch self {
        case .pen: "pen"
        case .maskEraser: "eraser"
        case .strokeEraser: "stroke eraser"
        }
    }
}

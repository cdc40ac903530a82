import StrokeKit

/// The drawing tools a user can pick from the keyboard.
public enum ToolKind: Equatable, Hashable, Sendable, CaseIterable {
    /// Draws strokes.
    case pen
    /// Highlights: wide strokes drawn under the pen's ink, never over it.
    case marker
    /// Erases the parts of strokes under the brush.
    case maskEraser
    /// Removes every stroke the brush touches, whole.
    case strokeEraser
    /// Types text where the cursor is (letters are text while it is chosen).
    case text

    /// The name the status bar shows when there is room.
    public var name: String {
        switch self {
        case .pen: "pen"
        case .marker: "marker"
        case .maskEraser: "mask eraser"
        case .strokeEraser: "stroke eraser"
        case .text: "text"
        }
    }

    /// The name the status bar falls back to in a narrow terminal.
    public var shortName: String {
        switch self {
        case .pen: "pen"
        case .marker: "marker"
        case .maskEraser: "mask"
        case .strokeEraser: "erase"
        case .text: "text"
        }
    }
}

extension ToolKind {
    /// The ink tool of the strokes this tool draws; nil for the erasers.
    public var inkTool: InkTool? {
        switch self {
        case .pen, .text: .pen
        case .marker: .marker
        case .maskEraser, .strokeEraser: nil
        }
    }

    /// The tool whose `name` a peer's presence reports (`PresenceUpdate.tool`); nil for a name
    /// this version does not know.
    public init?(presenceName: String) {
        guard let tool = Self.allCases.first(where: { $0.name == presenceName }) else { return nil }
        self = tool
    }
}

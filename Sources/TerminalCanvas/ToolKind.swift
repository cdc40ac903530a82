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
    /// Draws a straight line, a box or an ellipse from the press to the release.
    case shape(ShapeKind)
    /// Selects strokes (a rectangle or a click) and moves, deletes or duplicates them.
    case select
    /// Takes the colour of the ink under the pointer, then gives the previous tool back.
    case eyedropper

    public static let allCases: [ToolKind] =
        [.pen, .marker, .maskEraser, .strokeEraser, .text] + ShapeKind.allCases.map(ToolKind.shape) + [
            .select, .eyedropper,
        ]

    /// The name the status bar shows when there is room.
    public var name: String {
        switch self {
        case .pen: "pen"
        case .marker: "marker"
        case .maskEraser: "mask eraser"
        case .strokeEraser: "stroke eraser"
        case .text: "text"
        case .shape(.line): "line"
        case .shape(.box): "box"
        case .shape(.ellipse): "ellipse"
        case .select: "select"
        case .eyedropper: "eyedropper"
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
        case .shape(.line): "line"
        case .shape(.box): "box"
        case .shape(.ellipse): "ellipse"
        case .select: "select"
        case .eyedropper: "pick"
        }
    }
}

extension ToolKind {
    /// The ink tool of the strokes this tool draws (a shape is a pen stroke); nil for the tools
    /// that draw nothing.
    public var inkTool: InkTool? {
        switch self {
        case .pen, .text, .shape: .pen
        case .marker: .marker
        case .maskEraser, .strokeEraser, .select, .eyedropper: nil
        }
    }

    /// The tool whose `name` a peer's presence reports (`PresenceUpdate.tool`); nil for a name
    /// this version does not know.
    public init?(presenceName: String) {
        guard let tool = Self.allCases.first(where: { $0.name == presenceName }) else { return nil }
        self = tool
    }
}

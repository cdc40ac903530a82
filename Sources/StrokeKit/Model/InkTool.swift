/// The drawing tool that made a stroke. Raw values are part of the stored encoding: never reuse one.
public enum InkTool: UInt8, CaseIterable, Hashable, Sendable {
    case pen = 0
    case marker = 1

    /// The width a new stroke of this tool starts with, in cells.
    public var defaultWidth: Double {
        switch self {
        case .pen: 0.25
        case .marker: 1
        }
    }
}

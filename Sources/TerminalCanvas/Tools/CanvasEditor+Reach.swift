import StrokeKit

/// Where an edit can find the groups it reads or changes, for a drawing that is still being
/// loaded (a staged open decodes the groups under the view first): the app makes sure every group
/// meeting `reach(of:)` is in the drawing before it runs the command.
extension CanvasEditor {
    /// How far outside the cell under it a tool can reach a group: the widest eraser's radius,
    /// rounded up, and a cell for a sample on the border.
    public static let toolReach = Int((ToolSettings.eraserSizes.max() ?? 1) / 2) + 2

    /// The cells the view shows, widened by the tools' reach: everything an edit made on screen
    /// can touch, and what a frame shows.
    public var reachOnScreen: CellRect {
        Self.widened(viewport.visible, by: Self.toolReach, Self.toolReach)
    }

    /// The cells a pan in any direction can bring on screen, with the tools' reach: what a
    /// drawing still being loaded should have next.
    public var reachOfNextPan: CellRect {
        let across = viewport.panStep(.right).dx
        let down = viewport.panStep(.down).dy
        return Self.widened(viewport.visible, by: across + Self.toolReach, down + Self.toolReach)
    }

    /// The cells `command` can touch groups in; nil when it can touch any group (a clear).
    /// Commands that move the view or the cursor (with a keyboard pen down, a move draws or
    /// erases along its way) reach from where the view is to where it goes; every other one
    /// acts on screen, or on groups it has in hand already (a selection, the undo history).
    public func reach(of command: EditorCommand) -> CellRect? {
        let here = viewport.visible
        switch command {
        case .clearDrawing:
            return nil
        case .pan(let direction):
            let step = viewport.panStep(direction)
            return Self.widened(
                here.union(Self.moved(here, step.dx, step.dy)), by: Self.toolReach, Self.toolReach)
        case .panBy(let dx, let dy):
            return Self.widened(here.union(Self.moved(here, dx, dy)), by: Self.toolReach, Self.toolReach)
        case .viewHome:
            return Self.widened(
                here.union(Self.moved(here, -here.x, -here.y)), by: Self.toolReach, Self.toolReach)
        case .placeCursor(let cell):
            let around = CellRect(
                x: cell.x - here.width, y: cell.y - here.height, width: 2 * here.width,
                height: 2 * here.height)
            return Self.widened(here.union(around), by: Self.toolReach, Self.toolReach)
        case .moveCursor(let dx, let dy):
            return Self.widened(here, by: abs(dx) + Self.toolReach, abs(dy) + Self.toolReach)
        default:
            return reachOnScreen
        }
    }

    private static func widened(_ rect: CellRect, by dx: Int, _ dy: Int) -> CellRect {
        CellRect(x: rect.x - dx, y: rect.y - dy, width: rect.width + 2 * dx, height: rect.height + 2 * dy)
    }

    private static func moved(_ rect: CellRect, _ dx: Int, _ dy: Int) -> CellRect {
        CellRect(x: rect.x + dx, y: rect.y + dy, width: rect.width, height: rect.height)
    }
}

import StrokeKit

/// A line, box or ellipse while it is being sized: anchored where the press (or space) was, its
/// other corner following the pointer (or the cursor), committed as a new group at release.
///
/// The preview is the stroke the release would commit, so what the user (and, through presence,
/// every peer) sees while dragging is what is stored. With `isConstrained` the corner is the
/// constrained one (45° lines, squares, circles; see `ShapeConstraint`).
struct ShapeGesture: Sendable {
    let kind: ShapeKind
    let key: StrokeKey
    let ink: Ink
    let anchor: CanvasCell
    private(set) var end: CanvasCell
    var isConstrained: Bool
    private let createdAtMilliseconds: Int64

    init(kind: ShapeKind, key: StrokeKey, ink: Ink, at cell: CanvasCell, nowMilliseconds: Int64) {
        self.kind = kind
        self.key = key
        self.ink = ink
        anchor = cell
        end = cell
        isConstrained = false
        createdAtMilliseconds = nowMilliseconds
    }

    /// The other corner follows the pointer.
    mutating func extend(to cell: CanvasCell) {
        end = cell
    }

    /// The corner the shape is drawn to: `end`, or the constrained corner nearest it.
    var corner: CanvasCell {
        guard isConstrained else { return end }
        let offset = ShapeConstraint.constrain(kind, dx: end.x - anchor.x, dy: end.y - anchor.y)
        return anchor.offset(dx: offset.dx, dy: offset.dy)
    }

    /// The shape as a stroke: its path from the anchor's centre to the corner's.
    var stroke: Stroke {
        let points = ShapePath.points(kind, from: anchor.centre, to: corner.centre)
        guard
            let stroke = Stroke(
                key: key, ink: ink, path: points.map { StrokePoint($0) },
                createdAtMilliseconds: createdAtMilliseconds)
        else { preconditionFailure("a shape's path always has a point") }
        return stroke
    }

    /// The cells of the path's points in order, for presence: a peer joins their centres, which
    /// for a line and a box is exactly the shape (their corners are cell centres) and for an
    /// ellipse a close outline of it.
    var cells: [CanvasCell] {
        var cells: [CanvasCell] = []
        for point in stroke.path {
            let cell = CanvasCell(containing: point.point)
            if cells.last != cell { cells.append(cell) }
        }
        return cells
    }

    /// The finished shape as a group of its own.
    var group: StrokeGroup? {
        StrokeGroup(key: key, pieces: [stroke])
    }
}

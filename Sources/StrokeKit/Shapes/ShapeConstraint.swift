/// The constraint the shape tools apply while Shift (or the constrain key) is held: lines to a
/// multiple of 45°, boxes to squares, ellipses to circles, as they look on screen.
///
/// A terminal cell is about twice as tall as it is wide (`cellAspect`), and export draws cells
/// 10 by 20, so "square" is judged in that picture, not in cell counts: a square box three rows
/// high is six columns wide. Offsets are whole cells, since a shape's corners are cell centres.
public enum ShapeConstraint {
    /// How many times taller than wide a cell is shown (the terminal's usual shape and export's).
    public static let cellAspect: Double = 2

    /// tan(67.5°): beyond this ratio a line snaps to the nearer axis rather than to a diagonal.
    private static let axisRatio = 2.414_213_562_373_095

    /// The offset from the shape's first corner to its second, constrained for `kind`.
    public static func constrain(
        _ kind: ShapeKind, dx: Int, dy: Int, aspect: Double = cellAspect
    ) -> (dx: Int, dy: Int) {
        let width = Double(abs(dx))
        let height = Double(abs(dy)) * aspect
        let signX = dx < 0 ? -1 : 1
        let signY = dy < 0 ? -1 : 1
        switch kind {
        case .line:
            if width > height * axisRatio { return (dx, 0) }
            if height > width * axisRatio { return (0, dy) }
            fallthrough
        case .box, .ellipse:
            // Equal sides on screen: the longer side decides, and the other follows it.
            let side = max(width, height)
            let rows = Int((side / aspect).rounded())
            let columns = Int((Double(rows) * aspect).rounded())
            if kind == .line && rows == 0 { return (dx, 0) }
            return (signX * columns, signY * rows)
        }
    }
}

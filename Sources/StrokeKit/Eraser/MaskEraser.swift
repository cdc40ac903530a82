/// The mask eraser: a round brush swept along a path, applied to stroke groups.
///
/// For each stroke piece it touches:
/// - where the brush covers the stroke's whole cross-section, the path is cut there; the pieces
///   on either side keep the creation key and stay in the group;
/// - everywhere it comes near enough to hide ink, the sweep is added to the piece's mask, so a
///   graze along the edge of a wide stroke hides that edge without cutting anything;
/// - a piece with no visible ink left is removed, and a group with no pieces left disappears.
///
/// Groups and pieces the brush does not reach come back unchanged (same value, same fingerprint).
public struct MaskEraser: Sendable {
    public var brush: EraserBrush

    public init(brush: EraserBrush) {
        self.brush = brush
    }

    /// The groups after one sweep along `path` (canvas coordinates), in the same order; groups
    /// erased completely are left out.
    public func erase(_ groups: [StrokeGroup], along path: [CanvasPoint]) -> [StrokeGroup] {
        groups.compactMap { group in
            let pieces = group.pieces.flatMap { erase($0, along: path) }
            return pieces == group.pieces ? group : StrokeGroup(key: group.key, pieces: pieces)
        }
    }

    /// The pieces left of one stroke after a sweep: none, the stroke itself, the stroke with a
    /// larger mask, or several cut pieces.
    public func erase(_ stroke: Stroke, along path: [CanvasPoint]) -> [Stroke] {
        let local = path.map { stroke.transform.invert($0) }
        guard let sweep = MaskSweep(radius: brush.radius, path: local) else { return [stroke] }
        let cutter = StrokeCutter(stroke: stroke)
        let touching = cutter.clip(sweep)
        guard !touching.isEmpty else { return [stroke] }

        let visibility = InkSampler(lattice: .braille)
        guard let kept = cutter.keptRuns(severedBy: touching) else {
            var masked = stroke
            masked.mask = stroke.mask.adding(touching)
            return visibility.hasVisibleInk(masked) ? [masked] : []
        }
        let sweeps = stroke.mask.sweeps + touching
        return kept.compactMap { run in
            guard var piece = cutter.piece(along: run) else { return nil }
            let pieceCutter = StrokeCutter(stroke: piece)
            piece.mask = StrokeMask(sweeps: sweeps.flatMap { pieceCutter.clip($0) })
            return visibility.hasVisibleInk(piece) ? piece : nil
        }
    }
}

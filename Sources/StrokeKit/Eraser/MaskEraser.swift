/// The mask eraser: a round brush swept along a path, applied to stroke groups.
///
/// For each stroke piece it touches:
/// - where the brush covers the stroke's whole cross-section, the path is cut there; the pieces
///   on either side keep the creation key and stay in the group;
/// - everywhere it comes near enough to hide ink, the sweep is added to the piece's mask, so a
///   graze along the edge of a wide stroke hides that edge without cutting anything;
/// - a piece with no visible ink left is removed.
///
/// The editor does not cut a group's stored base: it records a sweep (`sweep(along:near:)`) that
/// the group applies to its base (`StrokeGroup.pieces`), so sweeps from several peers merge.
/// Groups and pieces the brush does not reach come back unchanged (same value, same fingerprint).
public struct MaskEraser: Sendable {
    public var brush: EraserBrush

    public init(brush: EraserBrush) {
        self.brush = brush
    }

    /// The groups with one sweep along `path` (canvas coordinates) cut into their pieces, in the
    /// same order; groups erased completely are left out. This is folding a sweep into the base:
    /// the geometry `StrokeGroup.pieces` applies, without a record of the sweep.
    public func erase(_ groups: [StrokeGroup], along path: [CanvasPoint]) -> [StrokeGroup] {
        groups.compactMap { group in
            let pieces = group.pieces.flatMap { erase($0, along: path) }
            return pieces == group.pieces ? group : StrokeGroup(key: group.key, pieces: pieces)
        }
    }

    /// The pieces left of one stroke after a sweep along `path` (canvas coordinates).
    public func erase(_ stroke: Stroke, along path: [CanvasPoint]) -> [Stroke] {
        let local = path.map { stroke.transform.invert($0) }
        guard let sweep = MaskSweep(radius: brush.radius, path: local) else { return [stroke] }
        return Self.apply(sweep, to: stroke)
    }

    /// The passes of this brush along `path` (canvas coordinates) that come near enough to the
    /// group's stroke as drawn to hide ink, in the stroke's own coordinates (those of its first
    /// piece: the pieces of a group share their transform); empty when it comes near none. This
    /// is what is stored as a sweep of the group.
    public func sweep(along path: [CanvasPoint], near group: StrokeGroup) -> [MaskSweep] {
        guard let first = group.base.first else { return [] }
        let local = path.map { first.transform.invert($0) }
        guard let sweep = MaskSweep(radius: brush.radius, path: local) else { return [] }
        var near = [Bool](repeating: false, count: sweep.segments.count)
        for piece in group.base {
            for (index, isNear) in Self.nearSegments(of: sweep, piece).enumerated() where isNear {
                near[index] = true
            }
        }
        return StrokeCutter.runs(of: sweep, near: near)
    }

    /// The pieces left of one stroke after one sweep in the stroke's own coordinates: none, the
    /// stroke itself, the stroke with a larger mask, or several cut pieces.
    ///
    /// Text is never cut: the sweep's runs that hide a cell of it join its mask, and it is gone
    /// when no character shows. A kind from a newer build is left exactly as it is.
    public static func apply(_ sweep: MaskSweep, to stroke: Stroke) -> [Stroke] {
        switch stroke.kind {
        case .path: break
        case .unknown: return [stroke]
        case .text:
            let touching = StrokeCutter.runs(of: sweep, near: nearSegments(of: sweep, stroke))
            guard !touching.isEmpty else { return [stroke] }
            var masked = stroke
            masked.mask = stroke.mask.adding(touching)
            return TextLayout(masked)?.hasVisibleCharacters == true ? [masked] : []
        }
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

    /// Per segment of a sweep (in the stroke's own coordinates), whether it can hide anything of
    /// the stroke.
    private static func nearSegments(of sweep: MaskSweep, _ stroke: Stroke) -> [Bool] {
        switch stroke.kind {
        case .path: StrokeCutter(stroke: stroke).nearSegments(of: sweep)
        case .text: TextLayout.nearSegments(of: sweep, in: stroke)
        case .unknown: sweep.segments.map { _ in false }
        }
    }
}

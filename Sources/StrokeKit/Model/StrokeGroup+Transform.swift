extension StrokeGroup {
    /// The transform of each piece of the stroke as drawn, in order: what a move changes.
    public var baseTransforms: [StrokeTransform] { base.map(\.transform) }

    /// The group moved by (`dx`, `dy`) cells: every piece of the stroke as drawn is translated,
    /// and the sweeps, which are kept in the stroke's own coordinates, go along with it (an erased
    /// part stays erased where it moved to).
    public func translated(dx: Double, dy: Double) -> StrokeGroup {
        settingBaseTransforms(
            baseTransforms.map { StrokeTransform(dx: $0.dx + dx, dy: $0.dy + dy) })
    }

    /// The group with each piece of the stroke as drawn given the transform at its index (a
    /// move's undo puts the old ones back); pieces past the end of `transforms` keep theirs.
    public func settingBaseTransforms(_ transforms: [StrokeTransform]) -> StrokeGroup {
        let moved = base.enumerated().map { index, piece in
            var piece = piece
            if index < transforms.count { piece.transform = transforms[index] }
            return piece
        }
        guard let group = StrokeGroup(key: key, base: moved, sweeps: sweeps) else {
            preconditionFailure("a group's base is never empty")
        }
        return group
    }

    /// A copy of the group under another key (a duplicate): the same stroke as drawn and the same
    /// sweeps, so it looks the same.
    public func copy(as newKey: StrokeKey) -> StrokeGroup {
        guard let group = StrokeGroup(key: newKey, base: base, sweeps: sweeps) else {
            preconditionFailure("a group's base is never empty")
        }
        return group
    }
}

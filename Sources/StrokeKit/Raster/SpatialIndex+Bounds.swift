/// Where a group may have ink: the conservative bounds the index files each group under, and
/// the cells its samples can reach.
extension SpatialIndex {
    /// The conservative bounds of a group in cells: see the type's documentation. Nil only for a
    /// group without pieces (one its sweeps hide completely).
    public static func bounds(of group: StrokeGroup) -> CellRect? {
        bounds(ofGroup: group)?.bounds
    }

    /// `bounds(of:)` of a group, and the cells its ink can reach (`inkBounds(of:)` of each piece).
    static func bounds(ofGroup group: StrokeGroup) -> (bounds: CellRect, ink: CellRect)? {
        var found: (bounds: CellRect, ink: CellRect)?
        // Each piece read in place: iterating the array would copy every piece out of it.
        group.pieces.withUnsafeBufferPointer { pieces in
            for index in pieces.indices {
                let piece = bounds(ofPiece: pieces[index])
                found = found.map { ($0.bounds.union(piece.bounds), $0.ink.union(piece.ink)) } ?? piece
            }
        }
        return found
    }

    /// The conservative bounds of one piece: the box of its path on the canvas widened by half
    /// its width and one cell, in whole cells; for text, exactly the cells it covers.
    public static func bounds(of stroke: Stroke) -> CellRect {
        bounds(ofPiece: stroke).bounds
    }

    /// The cells a piece's samples can lie in, in either lattice: a sample is inked when its
    /// centre lies within half the width of the path (so in the path's box widened by that) or
    /// when the path passes through it (so its cell holds a point of the box). The widening has
    /// room for rounding; for text, the cells it covers.
    static func inkBounds(of stroke: Stroke) -> CellRect {
        bounds(ofPiece: stroke).ink
    }

    @inline(__always)
    private static func bounds(ofPiece stroke: Stroke) -> (bounds: CellRect, ink: CellRect) {
        // The kind asked first: a path (nearly every piece) is never copied for the text's layout.
        if !stroke.kind.isPath, let layout = TextLayout(stroke) { return (layout.bounds, layout.bounds) }
        let margin = stroke.ink.width / 2 + 1
        let dx = stroke.transform.dx
        let dy = stroke.transform.dy
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for sample in stroke.path {
            let x = sample.point.x + dx
            let y = sample.point.y + dy
            minX = min(minX, x)
            minY = min(minY, y)
            maxX = max(maxX, x)
            maxY = max(maxY, y)
        }
        // The cells of the path's box widened by `margin` on every side. The coordinates are
        // within a few million cells, so truncating and stepping down is `rounded(.down)`,
        // without a call to the C library's floor (x86-64's baseline has no rounding instruction).
        func cell(_ value: Double) -> Int {
            let truncated = Int(value)
            return Double(truncated) > value ? truncated - 1 : truncated
        }
        func cells(widenedBy margin: Double) -> CellRect {
            let left = cell(minX - margin)
            let top = cell(minY - margin)
            let right = cell(maxX + margin) + 1
            let bottom = cell(maxY + margin) + 1
            return CellRect(x: left, y: top, width: right - left, height: bottom - top)
        }
        let bounds = cells(widenedBy: margin)
        // Far more room than rounding needs (coordinates stay within a few million cells).
        let ink = cells(widenedBy: stroke.ink.width / 2 + 1.0 / 1024)
        return (bounds, ink.intersection(bounds) ?? bounds)
    }
}

/// Where a text stroke's characters sit on the canvas, and which of them its mask hides: the one
/// definition the raster, the extent, the eraser and the exporters use for text.
///
/// The first character's cell is the cell holding the origin with the transform applied; lines
/// go down one row each, characters to the right, a wide one taking two cells. A cell is hidden
/// when a sweep of the mask reaches its centre or passes through it (the ink rules for a sample,
/// at the size of a cell), and a character is hidden when any of its cells is: a cell cannot show
/// half of a wide glyph.
struct TextLayout {
    let text: StrokeText
    /// The canvas cell of the first character.
    let firstCell: (x: Int, y: Int)
    private let mask: [(a: Vector2, b: Vector2, radius: Double)]

    /// One cell of a character, on the canvas.
    struct PlacedCell {
        let x: Int
        let y: Int
        let placement: StrokeText.Placement
    }

    /// The layout of a text stroke; nil for any other kind.
    init?(_ stroke: Stroke) {
        guard let text = stroke.text else { return nil }
        self.text = text
        let origin = stroke.transform.apply(stroke.origin)
        firstCell = (Int(origin.x.rounded(.down)), Int(origin.y.rounded(.down)))
        let offset = Vector2(stroke.transform.dx, stroke.transform.dy)
        mask = stroke.mask.sweeps.flatMap { sweep in
            sweep.segments.map { (a: $0.0 + offset, b: $0.1 + offset, radius: sweep.radius) }
        }
    }

    /// Every cell the text covers, hidden or not.
    var bounds: CellRect {
        CellRect(x: firstCell.x, y: firstCell.y, width: max(text.width, 1), height: text.lines.count)
    }

    /// The cells of the characters the mask leaves, line by line, left to right.
    var visibleCells: [PlacedCell] {
        let all = text.placements.map {
            PlacedCell(x: firstCell.x + $0.column, y: firstCell.y + $0.line, placement: $0)
        }
        guard !mask.isEmpty else { return all }
        var hiddenCharacters = Set<Int>()
        for cell in all where isHidden(x: cell.x, y: cell.y) {
            hiddenCharacters.insert(cell.placement.character)
        }
        return all.filter { !hiddenCharacters.contains($0.placement.character) }
    }

    /// Whether anything of the text shows.
    var hasVisibleCharacters: Bool { !visibleCells.isEmpty }

    private func isHidden(x: Int, y: Int) -> Bool {
        mask.contains { Self.reaches($0.a, $0.b, radius: $0.radius, cellX: x, y: y) }
    }

    /// Whether a brush of `radius` along a–b (canvas coordinates) hides the cell.
    static func reaches(_ a: Vector2, _ b: Vector2, radius: Double, cellX x: Int, y: Int) -> Bool {
        let left = Double(x)
        let top = Double(y)
        let centre = Vector2(left + 0.5, top + 0.5)
        if PlanarGeometry.distanceSquared(from: centre, toSegment: a, b) <= radius * radius { return true }
        let edge = 1e-9
        return PlanarGeometry.segment(
            a, b, touchesRectMinX: left, minY: top, maxX: left + 1 - edge, maxY: top + 1 - edge)
    }

    /// Per segment of a sweep in the stroke's own coordinates, whether it hides a cell of this
    /// text (`stroke` is the text's stroke, for its transform).
    static func nearSegments(of sweep: MaskSweep, in stroke: Stroke) -> [Bool] {
        guard let layout = TextLayout(stroke) else { return sweep.segments.map { _ in false } }
        let offset = Vector2(stroke.transform.dx, stroke.transform.dy)
        let cells = layout.text.placements.map {
            (layout.firstCell.x + $0.column, layout.firstCell.y + $0.line)
        }
        let box = layout.bounds
        return sweep.segments.map { a, b in
            let (ca, cb) = (a + offset, b + offset)
            let reach = sweep.radius + 1
            guard max(ca.x, cb.x) >= Double(box.x) - reach, min(ca.x, cb.x) <= Double(box.maxX) + reach,
                max(ca.y, cb.y) >= Double(box.y) - reach, min(ca.y, cb.y) <= Double(box.maxY) + reach
            else { return false }
            return cells.contains { reaches(ca, cb, radius: sweep.radius, cellX: $0.0, y: $0.1) }
        }
    }
}

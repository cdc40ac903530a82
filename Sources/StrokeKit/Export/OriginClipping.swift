/// How much of a drawing `text` and `ansi` export leave out: those print the cells from the
/// canvas origin (0, 0) onwards, so ink left of or above it (panned there, imported from JSON,
/// written by a query) is not in them. `svg` and `json` keep everything.
public struct OriginClipping: Equatable, Sendable {
    /// Groups whose visible ink lies entirely left of or above the origin.
    public var whollyOutside: Int
    /// Groups with visible ink on both sides of the origin's row or column.
    public var partlyOutside: Int

    public init(whollyOutside: Int = 0, partlyOutside: Int = 0) {
        self.whollyOutside = whollyOutside
        self.partlyOutside = partlyOutside
    }

    /// Measures each group by its visible ink in `mode`'s lattice (erased ink does not count).
    public init(of groups: [StrokeGroup], mode: GlyphMode = .block) {
        self.init()
        for group in groups {
            guard let extent = Raster.extent(of: [group], mode: mode), extent.x < 0 || extent.y < 0 else {
                continue
            }
            if extent.maxX <= 0 || extent.maxY <= 0 {
                whollyOutside += 1
            } else {
                partlyOutside += 1
            }
        }
    }

    /// Groups left out in part or in whole.
    public var total: Int { whollyOutside + partlyOutside }

    /// What was left out, or nil when nothing was: how many strokes, wholly or in part (the
    /// program says which formats keep them).
    public func warning(format: String) -> String? {
        guard total > 0 else { return nil }
        var parts: [String] = []
        if whollyOutside > 0 { parts.append("\(whollyOutside) wholly") }
        if partlyOutside > 0 { parts.append("\(partlyOutside) partly") }
        let strokes = total == 1 ? "1 stroke lies" : "\(total) strokes lie"
        return "\(strokes) left of or above the canvas origin (0,0), where \(format) export starts, "
            + "and \(total == 1 ? "is" : "are") left out (\(parts.joined(separator: ", ")))"
    }
}

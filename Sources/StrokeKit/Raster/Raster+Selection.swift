extension Raster {
    /// The keys of the groups with visible ink (in `mode`'s lattice) in any cell of `rect`, in
    /// key order: what a selection rectangle picks up. A group whose ink only passes near the
    /// rectangle, or whose ink there is erased, is not picked.
    public static func keys(in groups: [StrokeGroup], touching rect: CellRect, mode: GlyphMode)
        -> [StrokeKey]
    {
        guard rect.width > 0, rect.height > 0 else { return [] }
        let lattice = mode.lattice
        let sampler = InkSampler(lattice: lattice)
        let (columns, rows) = lattice.samples(in: rect)
        return groups.filter { group in
            group.pieces.contains { stroke in
                !sampler.forEachVisibleSample(of: stroke, columns: columns, rows: rows) { _, _ in false }
            }
        }
        .map(\.key).sorted()
    }
}

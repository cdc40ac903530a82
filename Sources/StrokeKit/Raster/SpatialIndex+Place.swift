extension SpatialIndex {
    /// Where a slot's group is and what it holds, kept apart from the group so that a query and
    /// the raster's test of what is settled read 24 bytes per group, not the group.
    struct Place: Sendable {
        var x: Int32 = 0
        var y: Int32 = 0
        var width: Int32 = 0
        var height: Int32 = 0
        /// The index of the slot in `order`.
        var rank: Int32 = 0
        var flags: UInt8 = 0
        /// How far in from `bounds` the cells the group's ink can reach lie (`inkBounds`): two
        /// bits a side (left, top, right, bottom, from the low bits), in the bytes the place
        /// has spare.
        var insets: UInt8 = 0

        static let pen: UInt8 = 1
        static let marker: UInt8 = 2
        /// Text or a kind this build does not know: cells of its own, drawn in key order.
        static let glyphs: UInt8 = 4
        static let wide: UInt8 = 8

        var bounds: CellRect? {
            width > 0 ? CellRect(x: Int(x), y: Int(y), width: Int(width), height: Int(height)) : nil
        }

        /// The cells the group's samples can lie in, in either lattice: `bounds` without the
        /// extra cell of margin they keep (for the tiles, the dirty regions and the bounds
        /// cache), so the raster's walk asks about a third fewer cells of a stroke under others.
        var inkBounds: CellRect? {
            guard width > 0 else { return nil }
            let left = Int(insets & 3)
            let top = Int(insets >> 2 & 3)
            let right = Int(insets >> 4 & 3)
            let bottom = Int(insets >> 6 & 3)
            return CellRect(
                x: Int(x) + left, y: Int(y) + top, width: Int(width) - left - right,
                height: Int(height) - top - bottom)
        }

        /// The insets of `ink` inside `bounds` (which holds it), each at most 3.
        static func insets(of ink: CellRect, in bounds: CellRect) -> UInt8 {
            func inset(_ value: Int) -> UInt8 { UInt8(min(max(value, 0), 3)) }
            return inset(ink.x - bounds.x) | inset(ink.y - bounds.y) << 2 | inset(bounds.maxX - ink.maxX) << 4
                | inset(bounds.maxY - ink.maxY) << 6
        }

        func intersects(_ rect: CellRect) -> Bool {
            width > 0 && Int(x) < rect.maxX && rect.x < Int(x) + Int(width) && Int(y) < rect.maxY
                && rect.y < Int(y) + Int(height)
        }
    }
}

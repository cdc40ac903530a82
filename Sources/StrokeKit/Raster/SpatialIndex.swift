/// Where each stroke group may have ink: its bounds in cells, and a grid of tiles that lists the
/// groups whose bounds reach into each tile.
///
/// A frame asks for the groups under its viewport, and a change asks for the groups under the
/// cells it touched, so neither has to look at every group of a large drawing. The bounds are
/// conservative and the same in every glyph mode: the path's box (transform applied) widened by
/// half the ink's width and one cell, which holds every sample either lattice can ink (a mask
/// only hides ink, so it never widens them). A group whose bounds cover more than
/// `maximumTiles` tiles (a line across the whole canvas) is kept in a short list of wide groups
/// that every query checks, so one huge stroke never fills millions of tiles.
///
/// Groups live in numbered slots (reused after a removal), so a tile holds small integers and a
/// query never hashes keys. Why tiles and not an R-tree: DECISIONS.md.
public struct SpatialIndex: Sendable {
    /// A tile's size in cells: about the size of a freehand stroke, so most strokes lie in one to
    /// four tiles, and a 200x60 viewport covers about 100.
    public static let tileWidth = 16
    public static let tileHeight = 8
    /// The most tiles a group is listed in; one with larger bounds is a wide group.
    public static let maximumTiles = 256

    private struct Entry: Sendable {
        var key: StrokeKey
        var bounds: CellRect
        var isWide: Bool
    }

    private var slotsByKey: [StrokeKey: Int32] = [:]
    private var entries: [Entry?] = []
    private var freeSlots: [Int32] = []
    private var tiles: [Int64: [Int32]] = [:]
    private var wideSlots: [Int32] = []

    public init() {}

    /// Makes room for `count` groups, so filling an index with a whole drawing grows it once.
    public mutating func reserveCapacity(_ count: Int) {
        slotsByKey.reserveCapacity(count)
        entries.reserveCapacity(count)
    }

    /// How many groups the index holds.
    public var count: Int { slotsByKey.count }

    /// The bounds recorded for a key, if the index holds it.
    public func bounds(of key: StrokeKey) -> CellRect? {
        slotsByKey[key].flatMap { entries[Int($0)]?.bounds }
    }

    /// Records `group` under `key`, replacing what was recorded (nil removes the key); returns
    /// the bounds recorded before and after.
    @discardableResult
    public mutating func update(_ key: StrokeKey, to group: StrokeGroup?) -> (old: CellRect?, new: CellRect?)
    {
        let old = remove(key)
        guard let group, let bounds = Self.bounds(of: group) else { return (old, nil) }
        insert(key, bounds: bounds)
        return (old, bounds)
    }

    /// The keys whose bounds meet `rect`, in key order (z-order).
    public func keys(in rect: CellRect) -> [StrokeKey] {
        guard rect.width > 0, rect.height > 0, !slotsByKey.isEmpty else { return [] }
        var seen = [Bool](repeating: false, count: entries.count)
        var found: [StrokeKey] = []
        func consider(_ slot: Int32) {
            let index = Int(slot)
            guard !seen[index], let entry = entries[index] else { return }
            seen[index] = true
            if entry.bounds.intersects(rect) { found.append(entry.key) }
        }
        let tileRange = Self.tiles(of: rect)
        if tileRange.columns.count * tileRange.rows.count > tiles.count {
            // A rectangle bigger than the drawing: walk the tiles there are instead.
            for (id, slots) in tiles where Self.tile(id, isIn: tileRange) {
                for slot in slots { consider(slot) }
            }
        } else {
            for row in tileRange.rows {
                for column in tileRange.columns {
                    guard let slots = tiles[Self.tileID(column, row)] else { continue }
                    for slot in slots { consider(slot) }
                }
            }
        }
        for slot in wideSlots { consider(slot) }
        found.sort()
        return found
    }

    /// The conservative bounds of a group in cells: see the type's documentation. Nil only for a
    /// group without pieces, which `StrokeGroup` never holds.
    public static func bounds(of group: StrokeGroup) -> CellRect? {
        var bounds: CellRect?
        for stroke in group.pieces {
            let piece = self.bounds(of: stroke)
            bounds = bounds.map { $0.union(piece) } ?? piece
        }
        return bounds
    }

    /// The conservative bounds of one piece: the box of its path on the canvas widened by half
    /// its width and one cell, in whole cells; for text, exactly the cells it covers.
    public static func bounds(of stroke: Stroke) -> CellRect {
        if let layout = TextLayout(stroke) { return layout.bounds }
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
        let left = Int((minX - margin).rounded(.down))
        let top = Int((minY - margin).rounded(.down))
        let right = Int((maxX + margin).rounded(.down)) + 1
        let bottom = Int((maxY + margin).rounded(.down)) + 1
        return CellRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    private mutating func insert(_ key: StrokeKey, bounds: CellRect) {
        let range = Self.tiles(of: bounds)
        let isWide = range.columns.count * range.rows.count > Self.maximumTiles
        let entry = Entry(key: key, bounds: bounds, isWide: isWide)
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            entries[Int(free)] = entry
        } else {
            slot = Int32(entries.count)
            entries.append(entry)
        }
        slotsByKey[key] = slot
        if isWide {
            wideSlots.append(slot)
            return
        }
        for row in range.rows {
            for column in range.columns {
                tiles[Self.tileID(column, row), default: []].append(slot)
            }
        }
    }

    private mutating func remove(_ key: StrokeKey) -> CellRect? {
        guard let slot = slotsByKey.removeValue(forKey: key), let entry = entries[Int(slot)] else {
            return nil
        }
        entries[Int(slot)] = nil
        freeSlots.append(slot)
        if entry.isWide {
            wideSlots.removeAll { $0 == slot }
            return entry.bounds
        }
        let range = Self.tiles(of: entry.bounds)
        for row in range.rows {
            for column in range.columns {
                let id = Self.tileID(column, row)
                guard var slots = tiles[id], let at = slots.firstIndex(of: slot) else { continue }
                slots.swapAt(at, slots.count - 1)
                slots.removeLast()
                tiles[id] = slots.isEmpty ? nil : slots
            }
        }
        return entry.bounds
    }

    /// The tile columns and rows a rectangle of cells lies in.
    private static func tiles(of rect: CellRect) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        let columns =
            SampleLattice.floorDivide(
                rect.x, tileWidth)...SampleLattice.floorDivide(
                rect.maxX - 1, tileWidth)
        let rows =
            SampleLattice.floorDivide(
                rect.y, tileHeight)...SampleLattice.floorDivide(
                rect.maxY - 1, tileHeight)
        return (columns, rows)
    }

    /// One number for a tile: its column in the high half, its row in the low half (both fit:
    /// coordinates stay within a few million cells).
    private static func tileID(_ column: Int, _ row: Int) -> Int64 {
        Int64(column) << 32 | Int64(UInt32(truncatingIfNeeded: row))
    }

    private static func tile(_ id: Int64, isIn range: (columns: ClosedRange<Int>, rows: ClosedRange<Int>))
        -> Bool
    {
        let column = Int(id >> 32)
        let row = Int(Int32(truncatingIfNeeded: id))
        return range.columns.contains(column) && range.rows.contains(row)
    }
}

extension CellRect {
    /// Whether the two share at least one cell (an empty rectangle shares none).
    public func intersects(_ other: CellRect) -> Bool {
        width > 0 && height > 0 && other.width > 0 && other.height > 0 && x < other.maxX && other.x < maxX
            && y < other.maxY && other.y < maxY
    }

    /// The cells the two share; nil when they share none.
    public func intersection(_ other: CellRect) -> CellRect? {
        guard intersects(other) else { return nil }
        let minX = max(x, other.x)
        let minY = max(y, other.y)
        return CellRect(
            x: minX, y: minY, width: min(maxX, other.maxX) - minX, height: min(maxY, other.maxY) - minY)
    }
}

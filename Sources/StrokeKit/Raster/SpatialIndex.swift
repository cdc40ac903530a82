import CPrefetch

/// The drawing's groups: by key, in key order (z-order), and by place — each group's bounds in
/// cells and a grid of tiles that lists the groups whose bounds reach into each tile.
///
/// A frame asks for the groups under its viewport, and a change asks for the groups under the
/// cells it touched, so neither has to look at every group of a large drawing. The bounds are
/// conservative and the same in every glyph mode: the path's box (transform applied) widened by
/// half the ink's width and one cell, which holds every sample either lattice can ink (a mask
/// only hides ink, so it never widens them). A group whose bounds cover more than
/// `maximumTiles` tiles (a line across the whole canvas) is kept in a short list of wide groups
/// that every query checks, so one huge stroke never fills millions of tiles. A group whose
/// sweeps hide all of it has no bounds: it is held (an undo brings it back) but in no tile.
///
/// Groups live in numbered slots (reused after a removal), so a tile holds small integers and a
/// query never hashes keys. Each slot knows its rank in key order, so a query marks the ranks it
/// found and reads them back in order instead of sorting keys; the raster walks them topmost
/// first and looks at a group itself only when its bounds reach a cell that can still change.
/// This one value is the only copy of the groups (the drawing has no map of its own). Why tiles
/// and not an R-tree: DECISIONS.md.
public struct SpatialIndex: Sendable {
    /// A tile's size in cells: about the size of a freehand stroke, so most strokes lie in one to
    /// four tiles, and a 200x60 viewport covers about 100.
    public static let tileWidth = 16
    public static let tileHeight = 8
    /// The most tiles a group is listed in; one with larger bounds is a wide group.
    public static let maximumTiles = 256

    /// The slot of each key (read back from the group in the slot).
    private var keySlots = SlotIndex<StrokeKey>()
    /// By slot; nil for a free slot.
    private var groups: [StrokeGroup?] = []
    /// By slot.
    private(set) var places: [Place] = []
    private var freeSlots: [Int32] = []
    /// The slots in key order.
    private(set) var order: [Int32] = []
    private var tiles: [Int64: [Int32]] = [:]
    private var wideSlots: [Int32] = []

    public init() {}

    /// An index of `groups`; of two groups with one key, the later one is kept.
    public init(groups: [StrokeGroup]) {
        let sorted = groups.indices.sorted { lhs, rhs in
            groups[lhs].key != groups[rhs].key ? groups[lhs].key < groups[rhs].key : lhs < rhs
        }
        var kept: [Int] = []
        kept.reserveCapacity(sorted.count)
        for index in sorted {
            if let last = kept.last, groups[last].key == groups[index].key {
                kept[kept.count - 1] = index
            } else {
                kept.append(index)
            }
        }
        keySlots.reserveCapacity(kept.count)
        self.groups.reserveCapacity(kept.count)
        places.reserveCapacity(kept.count)
        order.reserveCapacity(kept.count)
        for (rank, index) in kept.enumerated() {
            let slot = Int32(rank)
            let group = groups[index]
            keySlots.insert(slot, for: group.key)
            self.groups.append(group)
            places.append(Place())
            order.append(slot)
            place(slot, group, rank: slot)
        }
    }

    /// Makes room for `count` groups, so filling an index with a whole drawing grows it once.
    public mutating func reserveCapacity(_ count: Int) {
        keySlots.reserveCapacity(count)
        groups.reserveCapacity(count)
        places.reserveCapacity(count)
        order.reserveCapacity(count)
    }

    /// How many groups the index holds.
    public var count: Int { keySlots.count }

    /// The group held under a key, if any.
    public func group(for key: StrokeKey) -> StrokeGroup? {
        slot(of: key).flatMap { groups[Int($0)] }
    }

    /// The slot holding `key`'s group, if any.
    @inline(__always)
    private func slot(of key: StrokeKey) -> Int32? {
        // Through the buffer, so that only the key is copied out of a slot.
        groups.withUnsafeBufferPointer { groups in
            keySlots.slot(of: key) { groups[Int($0)]?.key == key }
        }
    }

    /// The places and groups by slot, read through buffers: a walk over many slots (the
    /// raster's) takes neither array's storage once per slot, which bands walked on several
    /// threads at once would all take in turn; `Slots.pieces(inSlot:)` copies out of a slot only
    /// its pieces.
    @inline(__always)
    func withSlots<Result>(_ body: (Slots) -> Result) -> Result {
        places.withUnsafeBufferPointer { places in
            groups.withUnsafeBufferPointer { groups in body(Slots(places: places, groups: groups)) }
        }
    }

    /// The storage `withSlots` lends.
    struct Slots {
        let places: UnsafeBufferPointer<Place>
        let groups: UnsafeBufferPointer<StrokeGroup?>

        @inline(__always)
        func pieces(inSlot slot: Int32) -> [Stroke]? { groups[Int(slot)]?.pieces }

        /// `pieces(inSlot:)` of a slot whose place has bounds (so it holds a group), read in place
        /// where `StorageHint.isAvailable` says an optional group keeps its pieces where a group
        /// does: only the pieces are copied out, where `pieces(inSlot:)` copies the optional
        /// group (a retain of its key, base, sweeps and pieces, the key's a read of memory
        /// nothing else here touches).
        @inline(__always)
        func piecesInPlace(inSlot slot: Int32) -> [Stroke] {
            address(ofPiecesIn: slot).load(as: [Stroke].self)
        }

        /// Asks the processor for the place of `slot` and for the part of its group that holds
        /// where the pieces are (a hint): the raster's walk asks some groups before
        /// `prefetchPieces` reads it.
        @inline(__always)
        func prefetchSlot(_ slot: Int32) {
            drawtogether_prefetch(places.baseAddress.unsafelyUnwrapped + Int(slot))
            drawtogether_prefetch(address(ofPiecesIn: slot))
        }

        /// Asks the processor for the storage of the pieces of the group in `slot` (a hint,
        /// `StorageHint`): the raster's walk asks a few groups before it reads them.
        @inline(__always)
        func prefetchPieces(inSlot slot: Int32) {
            StorageHint.prefetch(StorageHint.storage(at: address(ofPiecesIn: slot)))
        }

        /// Asks for the points of the first piece of the group in `slot` when its place has
        /// bounds (so it has a piece): it reads where they are from the pieces' storage, asked
        /// for by `prefetchPieces` some groups before.
        @inline(__always)
        func prefetchPath(inSlot slot: Int32) {
            guard places[Int(slot)].width > 0, let pieces = StorageHint.storage(at: address(ofPiecesIn: slot))
            else { return }
            StorageHint.prefetch(
                StorageHint.storage(at: pieces + StorageHint.elementsOffset + Self.pathOffset))
        }

        @inline(__always)
        private func address(ofPiecesIn slot: Int32) -> UnsafeRawPointer {
            UnsafeRawPointer(groups.baseAddress.unsafelyUnwrapped + Int(slot)) + Self.piecesOffset
        }

        private static let piecesOffset = MemoryLayout<StrokeGroup>.offset(of: \StrokeGroup.pieces) ?? 0
        private static let pathOffset = MemoryLayout<Stroke>.offset(of: \Stroke.path) ?? 0
    }

    /// Every key, in key order.
    public var keys: [StrokeKey] { order.compactMap { groups[Int($0)]?.key } }

    /// Every group, in key order.
    public var orderedGroups: [StrokeGroup] { order.compactMap { groups[Int($0)] } }

    /// The highest key, if any.
    public var lastKey: StrokeKey? { order.last.flatMap { groups[Int($0)]?.key } }

    /// The bounds recorded for a key, if the index holds it and it has visible pieces.
    public func bounds(of key: StrokeKey) -> CellRect? {
        slot(of: key).flatMap { places[Int($0)].bounds }
    }

    /// Records `group` under `key`, replacing what was recorded (nil removes the key); returns
    /// the bounds recorded before and after.
    @discardableResult
    public mutating func update(_ key: StrokeKey, to group: StrokeGroup?) -> (old: CellRect?, new: CellRect?)
    {
        if let slot = slot(of: key) {
            let old = places[Int(slot)].bounds
            unplace(slot)
            guard let group else {
                remove(slot, key: key)
                return (old, nil)
            }
            groups[Int(slot)] = group
            place(slot, group, rank: places[Int(slot)].rank)
            return (old, places[Int(slot)].bounds)
        }
        guard let group else { return (nil, nil) }
        let slot = takeSlot(for: group, key: key)
        let rank = insertionRank(of: key)
        order.insert(slot, at: rank)
        renumber(from: rank)
        place(slot, group, rank: Int32(rank))
        return (nil, places[Int(slot)].bounds)
    }

    /// Adds the groups whose keys the index does not hold (of two with one key, the first),
    /// merging them into the key order in one pass and renumbering the ranks above the lowest
    /// once, rather than once per group; returns the keys added, sorted, and their bounds.
    public mutating func insertNew(_ newGroups: [StrokeGroup]) -> (keys: [StrokeKey], regions: [CellRect]) {
        var added: [(key: StrokeKey, slot: Int32)] = []
        for group in newGroups where slot(of: group.key) == nil {
            added.append((group.key, takeSlot(for: group, key: group.key)))
        }
        guard let lowest = added.min(by: { $0.key < $1.key })?.key else { return ([], []) }
        added.sort { $0.key < $1.key }
        let firstRank = insertionRank(of: lowest)
        var merged: [Int32] = []
        merged.reserveCapacity(order.count + added.count)
        merged.append(contentsOf: order[..<firstRank])
        // Each new key's place is found by a binary search of the ranks after the last one's,
        // and the slots between are copied whole: a slice of a few hundred groups loaded into a
        // drawing of 100,000 reads a few thousand keys, not every key above the lowest new one.
        var next = firstRank
        for entry in added {
            let rank = insertionRank(of: entry.key, from: next)
            merged.append(contentsOf: order[next..<rank])
            merged.append(entry.slot)
            next = rank
        }
        merged.append(contentsOf: order[next...])
        order = merged
        renumber(from: firstRank)
        var regions: [CellRect] = []
        regions.reserveCapacity(added.count)
        for entry in added {
            guard let group = groups[Int(entry.slot)] else { continue }
            place(entry.slot, group, rank: places[Int(entry.slot)].rank)
            if let bounds = places[Int(entry.slot)].bounds { regions.append(bounds) }
        }
        return (added.map(\.key), regions)
    }

    /// The keys whose bounds meet `rect`, in key order (z-order).
    public func keys(in rect: CellRect) -> [StrokeKey] {
        slots(in: rect).compactMap { groups[Int($0)]?.key }
    }

    /// The groups whose bounds meet `rect`, in key order (z-order).
    public func groups(in rect: CellRect) -> [StrokeGroup] {
        slots(in: rect).compactMap { groups[Int($0)] }
    }

    /// The slots whose bounds meet `rect`, in key order: each found once (in the first tile of
    /// the query that its bounds reach, so no set of seen slots is needed), then put in order by
    /// rank, through a bitmap of ranks when many are found and by sorting when few are.
    func slots(in rect: CellRect) -> [Int32] {
        guard rect.width > 0, rect.height > 0, !order.isEmpty else { return [] }
        var ranks: [Int32] = []
        let range = Self.tiles(of: rect)
        func consider(_ slot: Int32, column: Int, row: Int) {
            let place = places[Int(slot)]
            guard place.intersects(rect) else { return }
            // Listed in every tile its bounds reach: taken in the first of them the query visits.
            let own = Self.firstTile(of: place)
            guard column == max(own.column, range.columns.lowerBound),
                row == max(own.row, range.rows.lowerBound)
            else { return }
            ranks.append(place.rank)
        }
        if range.columns.count * range.rows.count > tiles.count {
            // A rectangle bigger than the drawing: walk the tiles there are instead.
            for (id, slots) in tiles {
                let (column, row) = Self.tile(id)
                guard range.columns.contains(column), range.rows.contains(row) else { continue }
                forEach(slots) { consider($0, column: column, row: row) }
            }
        } else {
            for row in range.rows {
                for column in range.columns {
                    guard let slots = tiles[Self.tileID(column, row)] else { continue }
                    forEach(slots) { consider($0, column: column, row: row) }
                }
            }
        }
        for slot in wideSlots where places[Int(slot)].intersects(rect) {
            ranks.append(places[Int(slot)].rank)
        }
        if ranks.count < 2 { return ranks.map { order[Int($0)] } }
        if ranks.count * 16 < order.count {
            ranks.sort()
            return ranks.map { order[Int($0)] }
        }
        var marked = [UInt64](repeating: 0, count: (order.count + 63) / 64)
        for rank in ranks { marked[Int(rank) >> 6] |= 1 << UInt64(rank & 63) }
        var found: [Int32] = []
        found.reserveCapacity(ranks.count)
        for (word, bits) in marked.enumerated() where bits != 0 {
            var rest = bits
            while rest != 0 {
                found.append(order[word << 6 | rest.trailingZeroBitCount])
                rest &= rest - 1
            }
        }
        return found
    }

    /// Calls `body` with each slot of a tile's list, having asked the processor for the place of
    /// the slot `placesAhead` further on: a tile lists its slots in no order of where their places
    /// lie, so without the hint nearly every place a query reads waits on memory (at 100,000
    /// strokes, the query of a cold frame was a fifth of the frame, three quarters of it that
    /// wait; DECISIONS.md, stop 29).
    @inline(__always)
    private func forEach(_ slots: [Int32], _ body: (Int32) -> Void) {
        places.withUnsafeBufferPointer { places in
            let places = places.baseAddress.unsafelyUnwrapped
            slots.withUnsafeBufferPointer { slots in
                for at in slots.indices {
                    if at + Self.placesAhead < slots.count {
                        drawtogether_prefetch(places + Int(slots[at + Self.placesAhead]))
                    }
                    body(slots[at])
                }
            }
        }
    }

    private static let placesAhead = 8

    /// The rank a new key takes: the first rank whose key is not below it.
    private func insertionRank(of key: StrokeKey) -> Int {
        // Most new keys are the highest (a stroke just drawn): no search then.
        if let last = lastKey, last < key { return order.count }
        return insertionRank(of: key, from: 0)
    }

    /// The first rank from `start` on whose key is not below `key` (the keys below `start` are).
    private func insertionRank(of key: StrokeKey, from start: Int) -> Int {
        var low = start
        var high = order.count
        while low < high {
            let middle = (low + high) / 2
            if let other = groups[Int(order[middle])]?.key, other < key {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// Stores a group under a new key in a free slot (or a new one), not yet in the key order
    /// nor in any tile.
    private mutating func takeSlot(for group: StrokeGroup, key: StrokeKey) -> Int32 {
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            groups[Int(free)] = group
        } else {
            slot = Int32(groups.count)
            groups.append(group)
            places.append(Place())
        }
        keySlots.insert(slot, for: key)
        return slot
    }

    /// Gives the slots from `rank` on their ranks again, after an insertion or a removal there.
    private mutating func renumber(from rank: Int) {
        for index in rank..<order.count { places[Int(order[index])].rank = Int32(index) }
    }

    private mutating func remove(_ slot: Int32, key: StrokeKey) {
        let rank = Int(places[Int(slot)].rank)
        order.remove(at: rank)
        renumber(from: rank)
        keySlots.remove(key) { $0 == slot }
        groups[Int(slot)] = nil
        places[Int(slot)] = Place()
        freeSlots.append(slot)
    }

    /// Records the bounds and kinds of `group` in `slot` and lists the slot in its tiles.
    private mutating func place(_ slot: Int32, _ group: StrokeGroup, rank: Int32) {
        var flags: UInt8 = 0
        for piece in group.pieces {
            if !piece.kind.isPath {
                flags |= Place.glyphs
            } else {
                flags |= piece.ink.tool == .marker ? Place.marker : Place.pen
            }
        }
        guard let (bounds, ink) = Self.bounds(ofGroup: group) else {
            places[Int(slot)] = Place(rank: rank, flags: flags)
            return
        }
        let range = Self.tiles(of: bounds)
        let isWide = range.columns.count * range.rows.count > Self.maximumTiles
        if isWide { flags |= Place.wide }
        places[Int(slot)] = Place(
            x: Int32(clamping: bounds.x), y: Int32(clamping: bounds.y), width: Int32(clamping: bounds.width),
            height: Int32(clamping: bounds.height), rank: rank, flags: flags,
            insets: Place.insets(of: ink, in: bounds))
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

    /// Takes the slot out of its tiles (its group and rank stay).
    private mutating func unplace(_ slot: Int32) {
        let place = places[Int(slot)]
        guard let bounds = place.bounds else { return }
        if place.flags & Place.wide != 0 {
            wideSlots.removeAll { $0 == slot }
            return
        }
        let range = Self.tiles(of: bounds)
        for row in range.rows {
            for column in range.columns {
                let id = Self.tileID(column, row)
                guard var slots = tiles[id], let at = slots.firstIndex(of: slot) else { continue }
                slots.swapAt(at, slots.count - 1)
                slots.removeLast()
                tiles[id] = slots.isEmpty ? nil : slots
            }
        }
    }

    /// The tile columns and rows a rectangle of cells lies in.
    private static func tiles(of rect: CellRect) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        let columns =
            SampleLattice.floorDivide(rect.x, tileWidth)...SampleLattice.floorDivide(rect.maxX - 1, tileWidth)
        let rows =
            SampleLattice.floorDivide(
                rect.y, tileHeight)...SampleLattice.floorDivide(rect.maxY - 1, tileHeight)
        return (columns, rows)
    }

    /// The tile holding a place's top-left cell.
    private static func firstTile(of place: Place) -> (column: Int, row: Int) {
        (
            SampleLattice.floorDivide(Int(place.x), tileWidth),
            SampleLattice.floorDivide(Int(place.y), tileHeight)
        )
    }

    /// One number for a tile: its column in the high half, its row in the low half (both fit:
    /// coordinates stay within a few million cells).
    private static func tileID(_ column: Int, _ row: Int) -> Int64 {
        Int64(column) << 32 | Int64(UInt32(truncatingIfNeeded: row))
    }

    private static func tile(_ id: Int64) -> (column: Int, row: Int) {
        (Int(id >> 32), Int(Int32(truncatingIfNeeded: id)))
    }
}

import CPrefetch

/// Hints that let a walk over many stored groups ask the processor for their storage a few
/// groups before it reads it, so that its reads wait less on memory (the raster's walk at
/// 100,000 strokes spends much of a cold frame waiting on the first read of each group's pieces
/// and path, each a heap object of its own).
///
/// A hint changes nothing a program reads: a prefetch of any address is allowed. What it needs is
/// where an array keeps its elements, read without retaining the array (a retain writes to the
/// object, a wait of its own): the standard library keeps an array as one reference to a storage
/// object whose elements begin after a header of 32 bytes on 64-bit platforms, and an optional
/// of a struct holding references as the struct itself. `isAvailable` checks both on real values
/// once; where they do not hold, no hint is given.
enum StorageHint {
    /// Where an array's elements begin in its storage object.
    static let elementsOffset = 32

    /// Whether the layouts the hints read hold in this build (checked once, on real arrays).
    static let isAvailable: Bool = {
        let path = [StrokePoint(x: 1, y: 2, timeOffsetMilliseconds: 0)]
        guard let key = StrokeKey(rawValue: "2026-03-25T16:20:14.127Z~hint"),
            let stroke = Stroke(
                key: key, ink: Ink(tool: .pen, colour: 1, width: 0.25), path: path, createdAtMilliseconds: 0),
            let group = StrokeGroup(key: key, pieces: [stroke]),
            let piecesOffset = MemoryLayout<StrokeGroup>.offset(of: \StrokeGroup.pieces),
            let pathOffset = MemoryLayout<Stroke>.offset(of: \Stroke.path),
            MemoryLayout<StrokeGroup?>.size == MemoryLayout<StrokeGroup>.size
        else { return false }
        let groups: [StrokeGroup?] = [group]
        return groups.withUnsafeBufferPointer { groups in
            let pieces = storage(at: UnsafeRawPointer(groups.baseAddress!) + piecesOffset)
            let elements = group.pieces.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            guard let pieces, pieces + elementsOffset == elements else { return false }
            let points = group.pieces[0].path.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            return storage(at: pieces + elementsOffset + pathOffset).map { $0 + elementsOffset } == points
        }
    }()

    /// The storage object of the array stored at `address`, read as the reference's bits.
    @inline(__always)
    static func storage(at address: UnsafeRawPointer) -> UnsafeRawPointer? {
        address.load(as: UnsafeRawPointer?.self)
    }

    /// Asks for the two cache lines from `address` on.
    @inline(__always)
    static func prefetch(_ address: UnsafeRawPointer?) {
        drawtogether_prefetch(address)
        drawtogether_prefetch(address.map { $0 + 64 })
    }
}

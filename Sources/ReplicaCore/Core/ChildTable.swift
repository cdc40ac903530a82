/// The levels below a map node, by key: the children of `PathNode`.
///
/// A drawing's `strokes` map has a child per stroke, 100,000 in a large drawing. In the standard
/// library's dictionary each child took a bucket of its key and node (40 bytes) in a table kept
/// at most three quarters full and a power of two long, so 100,020 children had 262,144 buckets:
/// 10.5 MB, more than any other table of an open drawing. Here the keys and nodes lie in two
/// arrays in the order they came (40 bytes a child, no empty buckets), and an index of 8-byte
/// places, up to four fifths full, finds them: about 5 MB for the same children, and filling it
/// writes the arrays in order instead of scattering buckets over 10 MB.
///
/// A place holds the child's position plus one in its low half (0 where free) and the low half
/// of its key's hash in its high half: the hash picks the place to start from (linear probing),
/// so growing the index never hashes a key again, and a probe passes over other keys by their
/// halves without reading them. The hash is the standard library's, seeded per process, so keys
/// a peer chose cannot be made to collide. Children are never removed (a node, once made, stays
/// when its contents go), so no place is ever freed.
struct ChildTable: Sendable {
    /// The keys, in the order the children came.
    private(set) var keys: [String] = []
    /// The nodes, in the order of `keys`.
    private(set) var values: [PathNode] = []
    /// The index: a power of two long, at most `maximumLoad` full.
    private var places: [UInt64] = []

    init() {}

    /// An empty table with room for `count` children.
    init(minimumCapacity count: Int) {
        reserveCapacity(count)
    }

    var count: Int { keys.count }
    var isEmpty: Bool { keys.isEmpty }

    /// Makes room for `count` children, so that filling the table grows it once.
    mutating func reserveCapacity(_ count: Int) {
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
        let wanted = Self.placeCount(for: count)
        if wanted > places.count { rebuildIndex(placeCount: wanted) }
    }

    /// The child at `key`, if there is one.
    subscript(key: String) -> PathNode? {
        guard !places.isEmpty, let position = find(key, hash: Self.hash(key)).position else { return nil }
        return values[position]
    }

    /// Runs `body` on the child at `key` in place, made (empty) first when there is none.
    mutating func withValue<T>(forKey key: String, _ body: (inout PathNode) throws -> T) rethrows -> T {
        let position = positionMaking(key)
        return try body(&values[position])
    }

    /// Runs `body` on every child in place, in the order they came.
    mutating func forEachValue(_ body: (inout PathNode) throws -> Void) rethrows {
        for position in values.indices { try body(&values[position]) }
    }

    /// The position of the child at `key`, made first when there is none.
    private mutating func positionMaking(_ key: String) -> Int {
        if (count + 1) * Self.maximumLoad.denominator > places.count * Self.maximumLoad.numerator {
            rebuildIndex(placeCount: Self.placeCount(for: count + 1))
        }
        let hash = Self.hash(key)
        let (place, found) = find(key, hash: hash)
        if let found { return found }
        places[place] = UInt64(hash) << 32 | UInt64(keys.count + 1)
        keys.append(key)
        values.append(PathNode())
        return keys.count - 1
    }

    /// The place where `key` is, or the free place where the search for it ended.
    @inline(__always)
    private func find(_ key: String, hash: UInt32) -> (place: Int, position: Int?) {
        let mask = places.count - 1
        var place = Int(hash) & mask
        while true {
            let held = places[place]
            if held == 0 { return (place, nil) }
            if UInt32(truncatingIfNeeded: held >> 32) == hash {
                let position = Int(truncatingIfNeeded: held & 0xFFFF_FFFF) - 1
                if keys[position] == key { return (place, position) }
            }
            place = (place + 1) & mask
        }
    }

    /// A new index of `placeCount` places (a power of two) for the children there are, from the
    /// hash halves the places hold.
    private mutating func rebuildIndex(placeCount: Int) {
        var rebuilt = [UInt64](repeating: 0, count: placeCount)
        let mask = placeCount - 1
        for held in places where held != 0 {
            var place = Int(truncatingIfNeeded: held >> 32) & mask
            while rebuilt[place] != 0 { place = (place + 1) & mask }
            rebuilt[place] = held
        }
        places = rebuilt
    }

    /// At most four fifths of the places hold a child: a lookup probes two or three places on
    /// average, all in one or two cache lines.
    private static let maximumLoad = (numerator: 4, denominator: 5)

    /// The places an index needs for `count` children: a power of two, at least 8.
    static func placeCount(for count: Int) -> Int {
        var places = 8
        while count * maximumLoad.denominator > places * maximumLoad.numerator { places *= 2 }
        return places
    }

    /// The low half of the key's hash.
    @inline(__always)
    private static func hash(_ key: String) -> UInt32 {
        UInt32(truncatingIfNeeded: key.hashValue)
    }
}

extension ChildTable: Sequence {
    /// The children as (key, node), in the order they came.
    func makeIterator() -> Zip2Sequence<[String], [PathNode]>.Iterator {
        zip(keys, values).makeIterator()
    }
}

extension ChildTable: Equatable {
    /// The same keys with equal nodes, in whatever order they came.
    static func == (lhs: ChildTable, rhs: ChildTable) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (key, node) in lhs {
            guard let other = rhs[key], other == node else { return false }
        }
        return true
    }
}

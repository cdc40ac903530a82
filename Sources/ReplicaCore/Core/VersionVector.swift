/// For each peer, the highest counter of that peer's writes that a document has seen.
///
/// Writes from one peer are accepted in counter order, so the vector describes exactly the set of
/// writes seen: every dot at or below its peer's entry.
///
/// Stored as entries sorted by peer, without zeros: a document has a handful of peers, so a
/// short array searched in order beats hashing, and copying a vector (every event's context, the
/// removal facts of a path node) shares one buffer instead of building a dictionary.
public struct VersionVector: Hashable, Sendable, CustomStringConvertible {
    struct Entry: Hashable, Sendable {
        var peer: PeerID
        var counter: UInt64
    }

    private(set) var entries: [Entry]

    public init(_ counters: [PeerID: UInt64] = [:]) {
        entries = counters.filter { $0.value > 0 }.map { Entry(peer: $0.key, counter: $0.value) }
        entries.sort { $0.peer < $1.peer }
    }

    /// The vector of no writes, made without `init(_:)`'s dictionary (a path node's facts start so).
    static var empty: VersionVector { VersionVector(sortedEntries: []) }

    /// Entries already in strictly increasing peer order with no zero counter (the decoder checks).
    init(sortedEntries: [Entry]) {
        entries = sortedEntries
    }

    /// The entries as a dictionary (built on each call: for callers outside the hot paths).
    public var counters: [PeerID: UInt64] {
        Dictionary(uniqueKeysWithValues: entries.lazy.map { ($0.peer, $0.counter) })
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// Where `peer`'s entry is, or where it would go.
    private func position(of peer: PeerID) -> (index: Int, found: Bool) {
        if entries.count <= 8 {
            for index in entries.indices {
                let current = entries[index].peer
                if current == peer { return (index, true) }
                if current > peer { return (index, false) }
            }
            return (entries.count, false)
        }
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].peer < peer { low = middle + 1 } else { high = middle }
        }
        return (low, low < entries.count && entries[low].peer == peer)
    }

    public subscript(peer: PeerID) -> UInt64 {
        get {
            let (index, found) = position(of: peer)
            return found ? entries[index].counter : 0
        }
        set {
            let (index, found) = position(of: peer)
            if found {
                if newValue == 0 { entries.remove(at: index) } else { entries[index].counter = newValue }
            } else if newValue != 0 {
                entries.insert(Entry(peer: peer, counter: newValue), at: index)
            }
        }
    }

    /// The entries in peer order: the deterministic order for encoding and printing.
    public var sortedEntries: [(peer: PeerID, counter: UInt64)] {
        entries.map { (peer: $0.peer, counter: $0.counter) }
    }

    public func contains(_ dot: Dot) -> Bool {
        dot.counter <= self[dot.peer]
    }

    /// The pointwise maximum: the union of the two sets of writes.
    public mutating func formUnion(_ other: VersionVector) {
        if other.entries.isEmpty { return }
        if entries.isEmpty {
            entries = other.entries  // shares the other vector's storage
            return
        }
        // The union is one of the two when it covers the other (a later writer saw everything
        // an earlier one did): sharing its storage, or keeping this one, allocates nothing, where
        // merging into a buffer shared with another vector would copy it.
        if isCovered(by: other) {
            entries = other.entries
            return
        }
        if other.isCovered(by: self) { return }
        // The same peers (or fewer) on the other side: merged in place.
        if other.entries.allSatisfy({ position(of: $0.peer).found }) {
            var index = 0
            for entry in other.entries {
                while entries[index].peer < entry.peer { index += 1 }
                if entry.counter > entries[index].counter { entries[index].counter = entry.counter }
                index += 1
            }
            return
        }
        // Peers this vector lacks (concurrent writers, each with its own counter seen): one new
        // buffer of both, where inserting into a buffer shared with another vector copied it and
        // then moved its tail for every insert.
        entries = Self.merged(entries, other.entries)
    }

    /// The pointwise maximum of two entry lists, each in peer order.
    private static func merged(_ lhs: [Entry], _ rhs: [Entry]) -> [Entry] {
        var result: [Entry] = []
        result.reserveCapacity(lhs.count + rhs.count)
        var left = 0
        var right = 0
        while left < lhs.count || right < rhs.count {
            if right == rhs.count || (left < lhs.count && lhs[left].peer < rhs[right].peer) {
                result.append(lhs[left])
                left += 1
            } else if left == lhs.count || rhs[right].peer < lhs[left].peer {
                result.append(rhs[right])
                right += 1
            } else {
                result.append(
                    Entry(peer: lhs[left].peer, counter: max(lhs[left].counter, rhs[right].counter)))
                left += 1
                right += 1
            }
        }
        return result
    }

    /// Whether every write this vector covers is covered by `other` too.
    public func isCovered(by other: VersionVector) -> Bool {
        entries.allSatisfy { $0.counter <= other[$0.peer] }
    }

    /// The pointwise minimum: the writes both sets hold.
    public func meet(_ other: VersionVector) -> VersionVector {
        VersionVector(
            sortedEntries: entries.compactMap { entry in
                let counter = min(entry.counter, other[entry.peer])
                return counter == 0 ? nil : Entry(peer: entry.peer, counter: counter)
            })
    }

    public var description: String {
        "[" + entries.map { "\($0.peer.shortHex):\($0.counter)" }.joined(separator: ", ") + "]"
    }
}

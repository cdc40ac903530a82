/// For each peer, the highest counter of that peer's writes that a document has seen.
///
/// Writes from one peer are accepted in counter order, so the vector describes exactly the set of
/// writes seen: every dot at or below its peer's entry.
public struct VersionVector: Hashable, Sendable, CustomStringConvertible {
    public private(set) var counters: [PeerID: UInt64]

    public init(_ counters: [PeerID: UInt64] = [:]) {
        self.counters = counters.filter { $0.value > 0 }
    }

    public subscript(peer: PeerID) -> UInt64 {
        get { counters[peer] ?? 0 }
        set { counters[peer] = newValue == 0 ? nil : newValue }
    }

    /// The entries in peer order: the deterministic order for encoding and printing.
    public var sortedEntries: [(peer: PeerID, counter: UInt64)] {
        counters.sorted { $0.key < $1.key }.map { (peer: $0.key, counter: $0.value) }
    }

    public func contains(_ dot: Dot) -> Bool {
        dot.counter <= self[dot.peer]
    }

    /// The pointwise maximum: the union of the two sets of writes.
    public mutating func formUnion(_ other: VersionVector) {
        for (peer, counter) in other.counters where counter > self[peer] {
            counters[peer] = counter
        }
    }

    /// Whether every write this vector covers is covered by `other` too.
    public func isCovered(by other: VersionVector) -> Bool {
        counters.allSatisfy { $0.value <= other[$0.key] }
    }

    /// The pointwise minimum: the writes both sets hold.
    public func meet(_ other: VersionVector) -> VersionVector {
        var result: [PeerID: UInt64] = [:]
        for (peer, counter) in counters { result[peer] = min(counter, other[peer]) }
        return VersionVector(result)
    }

    public var description: String {
        "[" + sortedEntries.map { "\($0.peer.shortHex):\($0.counter)" }.joined(separator: ", ") + "]"
    }
}

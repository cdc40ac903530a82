/// The identity of one replica: a random 64-bit number made once when the store is created.
///
/// Two live replicas must never share one (their dots would collide), so it is never copied
/// between stores.
public struct PeerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// A fresh random id; zero is skipped so it can never be mistaken for "no peer".
    public static func random<Generator: RandomNumberGenerator>(using generator: inout Generator) -> PeerID {
        var value: UInt64 = 0
        while value == 0 { value = generator.next() }
        return PeerID(value)
    }

    /// All 16 hex digits.
    public var hex: String {
        let digits = String(rawValue, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The first six hex digits: enough to tell the peers of one drawing apart in keys and logs.
    public var shortHex: String { String(hex.prefix(6)) }

    public var description: String { hex }

    public static func < (lhs: PeerID, rhs: PeerID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The unique name of one write: the peer that made it and that peer's counter within the document.
public struct Dot: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var peer: PeerID
    public var counter: UInt64

    public init(peer: PeerID, counter: UInt64) {
        self.peer = peer
        self.counter = counter
    }

    public var description: String { "\(peer.shortHex):\(counter)" }

    public static func < (lhs: Dot, rhs: Dot) -> Bool {
        (lhs.peer, lhs.counter) < (rhs.peer, rhs.counter)
    }
}

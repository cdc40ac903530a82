/// Hands out creation keys for one peer, never the same key twice.
///
/// A key is the current time unless that would not be later than the last key this peer made
/// (or observed as its own, say after a restart); then it is one millisecond after it. Keys of
/// other peers are not followed: their suffix already keeps them apart, and a peer with a clock
/// far in the future must not drag everyone's keys along.
public struct StrokeKeyClock: Sendable {
    /// The suffix every key of this clock carries.
    public let peerShortID: String
    private var lastMilliseconds: Int64?

    /// A clock for a peer. The id is lower-cased, stripped of anything but 0-9 and a-z and cut
    /// to 16 characters; an id with nothing left becomes "0".
    public init(peerShortID: String) {
        let kept = peerShortID.lowercased().unicodeScalars.filter { scalar in
            ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar)
        }
        let text = String(String.UnicodeScalarView(kept.prefix(StrokeKey.maximumPeerSuffixLength)))
        self.peerShortID = text.isEmpty ? "0" : text
    }

    /// The conventional short id of a 64-bit peer id: its top 24 bits as six hex digits.
    public static func shortID(forPeerID peerID: UInt64) -> String {
        let text = String(peerID >> 40, radix: 16)
        return String(repeating: "0", count: 6 - text.count) + text
    }

    /// A new key for a stroke created at `nowMilliseconds` (Unix time).
    public mutating func nextKey(nowMilliseconds: Int64) -> StrokeKey {
        var milliseconds = min(max(nowMilliseconds, 0), StrokeKey.maximumMilliseconds)
        if let last = lastMilliseconds, milliseconds <= last {
            // At the end of year 9999 there is no later key to give; that is the documented limit.
            milliseconds = min(last + 1, StrokeKey.maximumMilliseconds)
        }
        lastMilliseconds = milliseconds
        guard let key = StrokeKey(creationMilliseconds: milliseconds, peerSuffix: peerShortID) else {
            preconditionFailure("a clamped time and a normalised suffix always make a valid key")
        }
        return key
    }

    /// Takes note of an existing key, so a key of this peer is never handed out again.
    public mutating func observe(_ key: StrokeKey) {
        guard key.peerSuffix == peerShortID else { return }
        lastMilliseconds = max(lastMilliseconds ?? key.creationMilliseconds, key.creationMilliseconds)
    }
}

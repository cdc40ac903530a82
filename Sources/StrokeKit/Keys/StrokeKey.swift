/// The creation key of a stroke group: ISO 8601 UTC with milliseconds, `~`, and the short id of
/// the peer that created it, e.g. `2026-03-25T16:20:14.127Z~3fa2c1`.
///
/// Keys compare as their UTF-8 bytes, and the fixed-width timestamp makes that creation order,
/// which is also z-order (a later key is drawn on top). The peer suffix keeps two peers drawing
/// in the same millisecond apart.
public struct StrokeKey: Hashable, Comparable, Sendable {
    public let rawValue: String
    /// Unix time in milliseconds of the timestamp part.
    public let creationMilliseconds: Int64
    /// The creating peer's short id (1–16 characters of 0-9 and a-z): the raw value after `~`,
    /// read from it rather than kept beside it, since a key is held once per group, per piece
    /// and per map of a drawing (100,000 strokes keep millions of them).
    public var peerSuffix: String {
        String(decoding: rawValue.utf8.dropFirst(UTCTimestamp.length + 1), as: UTF8.self)
    }

    /// The longest peer suffix a key may carry.
    public static let maximumPeerSuffixLength = 16
    /// The longest key in UTF-8 bytes.
    public static let maximumLength = UTCTimestamp.length + 1 + maximumPeerSuffixLength
    /// The latest creation time a key can express (the end of year 9999).
    public static let maximumMilliseconds = UTCTimestamp.maximumMilliseconds

    /// Parses and validates a key; nil unless it is exactly in the canonical form. The bytes are
    /// read where they lie (an open of 100,000 strokes parses every key), and the key keeps
    /// `rawValue` itself, so it shares the text's storage with whoever gave it.
    public init?(rawValue: String) {
        var text = rawValue
        let parsed = text.withUTF8 { bytes -> Int64? in
            let stamp = UTCTimestamp.length
            guard bytes.count > stamp + 1, bytes.count <= Self.maximumLength,
                bytes[stamp] == UInt8(ascii: "~"),
                Self.isValidPeerSuffix(UnsafeBufferPointer(rebasing: bytes[(stamp + 1)...]))
            else { return nil }
            return UTCTimestamp.parse(UnsafeBufferPointer(rebasing: bytes[..<stamp]))
        }
        guard let parsed else { return nil }
        self.rawValue = rawValue
        self.creationMilliseconds = parsed
    }

    /// The key for a creation time and a peer; nil if the time is outside 1970...9999 or the
    /// suffix is not valid.
    public init?(creationMilliseconds: Int64, peerSuffix: String) {
        guard (0...Self.maximumMilliseconds).contains(creationMilliseconds),
            Self.isValidPeerSuffix(peerSuffix)
        else { return nil }
        self.rawValue = UTCTimestamp.format(creationMilliseconds) + "~" + peerSuffix
        self.creationMilliseconds = creationMilliseconds
    }

    /// 1–16 characters, each a digit or a lowercase ASCII letter (safe inside a DQL path).
    public static func isValidPeerSuffix(_ suffix: String) -> Bool {
        var suffix = suffix
        return suffix.withUTF8(isValidPeerSuffix)
    }

    private static func isValidPeerSuffix(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.count <= maximumPeerSuffixLength
            && bytes.allSatisfy { (48...57).contains($0) || (97...122).contains($0) }
    }

    /// Byte order of the raw keys. The timestamp is fixed-width, so that is the order of the
    /// creation times, then of the peer suffixes' bytes; comparing the parsed time first skips the
    /// byte loop for all but same-millisecond keys (sorting 10,000 keys happens every frame).
    /// Keys of one millisecond share their canonical timestamp text, so their raw bytes compare
    /// as their suffixes do.
    public static func < (lhs: StrokeKey, rhs: StrokeKey) -> Bool {
        if lhs.creationMilliseconds != rhs.creationMilliseconds {
            return lhs.creationMilliseconds < rhs.creationMilliseconds
        }
        return lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }

    public static func == (lhs: StrokeKey, rhs: StrokeKey) -> Bool {
        lhs.rawValue == rhs.rawValue
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }
}

extension StrokeKey: CustomStringConvertible {
    public var description: String { rawValue }
}

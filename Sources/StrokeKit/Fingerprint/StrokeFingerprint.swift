/// A 128-bit digest of a stroke group's encoding, for telling which groups changed.
///
/// The encoding is deterministic and covers everything a group holds, so equal groups hash
/// equally and any edit changes the bytes. Not cryptographic: it guards against accidents, and a
/// peer can only ever overwrite its view of a group with other bytes anyway.
public struct StrokeFingerprint: Hashable, Sendable {
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The fingerprint of a byte string.
    public init(of bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { Self(digesting: $0) }
    }

    /// The fingerprint of a text's UTF-8 bytes: the same digest as of those bytes in an array,
    /// read in place (a stored value is fingerprinted without decoding or copying it).
    public init(ofUTF8 text: String) {
        var text = text
        self = text.withUTF8 { Self(digesting: UnsafeRawBufferPointer($0)) }
    }

    private init(digesting bytes: UnsafeRawBufferPointer) {
        // Two independent lanes, each a chain of bijective mixes (the SplitMix64 finaliser) over
        // 64-bit little-endian words; the length goes in last so zero padding cannot collide.
        var a: UInt64 = 0x6A09_E667_F3BC_C908
        var b: UInt64 = 0xBB67_AE85_84CA_A73B
        func absorb(_ word: UInt64) {
            a = Self.mix(a ^ word)
            b = Self.mix(b ^ (word << 32 | word >> 32) ^ 0x9E37_79B9_7F4A_7C15) &+ a
        }
        let whole = bytes.count / 8 * 8
        var index = 0
        while index < whole {
            absorb(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index += 8
        }
        if index < bytes.count {
            var word: UInt64 = 0
            for offset in 0..<(bytes.count - index) {
                word |= UInt64(bytes[index + offset]) << (8 * UInt64(offset))
            }
            absorb(word)
        }
        let length = UInt64(bytes.count)
        self.high = Self.mix(a ^ length)
        self.low = Self.mix(b ^ length ^ high)
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 32 lowercase hex digits.
    public var hex: String {
        func digits(_ value: UInt64) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        return digits(high) + digits(low)
    }
}

extension StrokeFingerprint: CustomStringConvertible {
    public var description: String { hex }
}

/// The order of a fixed-width integer's bytes: sync frames are big-endian, replica events
/// little-endian.
public enum ByteOrder: Sendable, Equatable {
    /// Most significant byte first (network order).
    case bigEndian
    /// Least significant byte first.
    case littleEndian
}

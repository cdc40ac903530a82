/// How a count, or the byte length of a string or byte string, is written in front of it.
public enum LengthPrefix: Sendable, Equatable {
    /// An LEB128 varint (stroke groups, replica deltas and events).
    case varint
    /// Two bytes (sync frame text).
    case uint16(ByteOrder)
    /// Four bytes (sync frame byte strings and point counts).
    case uint32(ByteOrder)

    /// The largest count the prefix can hold.
    @inlinable
    public var maximum: UInt64 {
        switch self {
        case .varint: UInt64.max
        case .uint16: UInt64(UInt16.max)
        case .uint32: UInt64(UInt32.max)
        }
    }
}

/// Reads primitives from untrusted bytes: single bytes, canonical LEB128 varints, zigzag signed
/// varints and fixed-width integers in either byte order. Every read is bounds-checked; nothing is
/// trusted before it is proven to fit. Counts, length-prefixed byte strings and UTF-8 text are in
/// `ByteReader+Prefixed.swift`.
///
/// `Failure` is the codec's own error type: a failed read throws it directly (typed), built from
/// the `ByteCodingError` that says what was being read and where, so a codec's decoder mixes these
/// reads with its own checks without converting errors at every call.
public struct ByteReader<Failure: ByteCodingFailure> {
    @usableFromInline let bytes: [UInt8]
    @usableFromInline var position: Int

    /// A reader over `bytes`, starting at `offset`.
    @inlinable
    public init(_ bytes: [UInt8], offset: Int = 0) {
        precondition(offset >= 0 && offset <= bytes.count, "offset \(offset) outside 0...\(bytes.count)")
        self.bytes = bytes
        position = offset
    }

    /// The offset of the next byte to read.
    @inlinable
    public var offset: Int { position }

    /// How many bytes are left.
    @inlinable
    public var remaining: Int { bytes.count - position }

    @inlinable
    public mutating func readByte(_ field: StaticString) throws(Failure) -> UInt8 {
        guard position < bytes.count else {
            throw Failure(.truncated(field: field.description, offset: position, needed: 1, available: 0))
        }
        defer { position += 1 }
        return bytes[position]
    }

    /// The next `count` bytes, without copying them.
    @inlinable
    public mutating func readBytes(_ field: StaticString, count: Int) throws(Failure) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else {
            throw Failure(
                .truncated(field: field.description, offset: position, needed: count, available: remaining))
        }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    /// Everything that is left.
    @inlinable
    public mutating func readRest() -> ArraySlice<UInt8> {
        defer { position = bytes.count }
        return bytes[position...]
    }

    /// An unsigned LEB128 varint of at most 64 bits, in its shortest form only: a zero final byte
    /// after others is refused, so every value has exactly one encoding.
    @inlinable
    public mutating func readVarint(_ field: StaticString) throws(Failure) -> UInt64 {
        let start = position
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte(field)
            let payload = UInt64(byte & 0x7F)
            // The tenth byte holds bit 63 alone.
            if shift == 63 && payload > 1 {
                throw Failure(.varintOverflow(field: field.description, offset: start))
            }
            value |= payload << shift
            if byte & 0x80 == 0 {
                if byte == 0 && position - start > 1 {
                    throw Failure(.overlongVarint(field: field.description, offset: start))
                }
                return value
            }
            shift += 7
            if shift > 63 { throw Failure(.varintOverflow(field: field.description, offset: start)) }
        }
    }

    /// A signed integer written as a zigzag varint: small magnitudes of either sign are short.
    @inlinable
    public mutating func readZigzag(_ field: StaticString) throws(Failure) -> Int64 {
        let raw = try readVarint(field)
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// A fixed-width integer of `MemoryLayout<T>.size` bytes in the given order.
    @inlinable
    public mutating func readFixed<T: FixedWidthInteger>(
        _ field: StaticString, as type: T.Type, _ order: ByteOrder
    ) throws(Failure) -> T {
        let size = MemoryLayout<T>.size
        guard size <= remaining else {
            throw Failure(
                .truncated(field: field.description, offset: position, needed: size, available: remaining))
        }
        var value: T = 0
        switch order {
        case .bigEndian:
            for index in 0..<size { value = (value << 8) | T(truncatingIfNeeded: bytes[position + index]) }
        case .littleEndian:
            for index in 0..<size { value |= T(truncatingIfNeeded: bytes[position + index]) << (index * 8) }
        }
        position += size
        return value
    }
}

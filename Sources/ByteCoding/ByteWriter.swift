/// Appends what `ByteReader` reads: bytes, LEB128 varints (always in their shortest form), zigzag
/// signed varints, fixed-width integers in either byte order, and counts, byte strings and UTF-8
/// text behind a length prefix.
public struct ByteWriter: Sendable {
    @usableFromInline var storage: [UInt8] = []

    @inlinable
    public init(reservingCapacity capacity: Int = 0) {
        if capacity > 0 { storage.reserveCapacity(capacity) }
    }

    /// Everything written so far.
    @inlinable
    public var bytes: [UInt8] { storage }

    /// Everything written so far, in an array of its size: for bytes that are kept (a stroke's
    /// stored value, held for as long as its drawing is open), where the room the writer doubled
    /// into as it wrote, up to as much again, would stay with them.
    /// (The copy's room may still be a few dozen bytes over: the allocator rounds blocks up.)
    public var bytesAtTheirSize: [UInt8] {
        storage.capacity > storage.count + 16 ? storage.withUnsafeBufferPointer { Array($0) } : storage
    }

    @inlinable
    public mutating func writeByte(_ byte: UInt8) {
        storage.append(byte)
    }

    /// Bytes as they are, with no prefix.
    @inlinable
    public mutating func writeBytes(_ more: some Sequence<UInt8>) {
        storage.append(contentsOf: more)
    }

    @inlinable
    public mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            storage.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        storage.append(UInt8(rest))
    }

    /// Small magnitudes of either sign become small varints.
    @inlinable
    public mutating func writeZigzag(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    @inlinable
    public mutating func writeFixed<T: FixedWidthInteger>(_ value: T, _ order: ByteOrder) {
        let ordered = order == .bigEndian ? value.bigEndian : value.littleEndian
        withUnsafeBytes(of: ordered) { storage.append(contentsOf: $0) }
    }

    /// A count or length; a fixed-width prefix holds at most its maximum (clamped).
    @inlinable
    public mutating func writeCount(_ count: Int, prefix: LengthPrefix) {
        switch prefix {
        case .varint: writeVarint(UInt64(count))
        case .uint16(let order): writeFixed(UInt16(clamping: count), order)
        case .uint32(let order): writeFixed(UInt32(clamping: count), order)
        }
    }

    /// Bytes behind their length. The caller keeps them within the prefix's maximum (a frame limit
    /// far below 4 GiB does); past it the length is clamped and the reader will refuse the rest.
    @inlinable
    public mutating func writeBytes(_ more: some Collection<UInt8>, prefix: LengthPrefix) {
        writeCount(more.count, prefix: prefix)
        storage.append(contentsOf: more)
    }

    /// UTF-8 text behind its length in bytes. Text longer than `limit` bytes, or than the prefix
    /// can hold, is cut at a Unicode scalar boundary, so the result is still valid UTF-8 and a
    /// receiver with the same limit accepts it.
    @inlinable
    public mutating func writeUTF8(_ text: String, prefix: LengthPrefix, truncatingTo limit: Int? = nil) {
        let maximum = min(UInt64(max(limit ?? Int.max, 0)), prefix.maximum)
        let utf8 = text.utf8
        guard UInt64(utf8.count) > maximum else {
            writeCount(utf8.count, prefix: prefix)
            // The bytes copied at once where they lie (a native string's are contiguous), not
            // appended one at a time through the view.
            if utf8.withContiguousStorageIfAvailable({ storage.append(contentsOf: $0) }) == nil {
                storage.append(contentsOf: utf8)
            }
            return
        }
        var length = 0
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            guard UInt64(length + width) <= maximum else { break }
            length += width
        }
        writeCount(length, prefix: prefix)
        storage.append(contentsOf: utf8.prefix(length))
    }
}

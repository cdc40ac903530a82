/// Counts and length-prefixed data: every count is checked against its limit and then against the
/// bytes that remain before anything is allocated or looped over, so a hostile count never
/// drives an allocation.
extension ByteReader {
    /// A count of items that each take at least `minimumBytes` (use 1 for a length in bytes),
    /// refused when it is over `limit` or when the rest cannot hold that many items.
    @inlinable
    public mutating func readCount(
        _ field: StaticString, prefix: LengthPrefix, minimumBytes: Int = 1, limit: Int? = nil
    ) throws(Failure) -> Int {
        let start = position
        let count: UInt64
        switch prefix {
        case .varint: count = try readVarint(field)
        case .uint16(let order): count = UInt64(try readFixed(field, as: UInt16.self, order))
        case .uint32(let order): count = UInt64(try readFixed(field, as: UInt32.self, order))
        }
        if let limit, count > UInt64(max(limit, 0)) {
            throw Failure(
                .countOverLimit(field: field.description, offset: start, count: count, limit: limit))
        }
        guard count <= UInt64(remaining / max(minimumBytes, 1)) else {
            throw Failure(
                .countExceedsRemaining(
                    field: field.description, offset: start, count: count, minimumBytes: max(minimumBytes, 1),
                    remaining: remaining))
        }
        return Int(count)
    }

    /// Bytes after a length prefix, at most `limit` of them, without copying them.
    @inlinable
    public mutating func readBytes(
        _ field: StaticString, prefix: LengthPrefix, limit: Int? = nil
    ) throws(Failure) -> ArraySlice<UInt8> {
        let length = try readCount(field, prefix: prefix, limit: limit)
        defer { position += length }
        return bytes[position..<(position + length)]
    }

    /// UTF-8 text after a length prefix counting its bytes, at most `limit` of them.
    @inlinable
    public mutating func readUTF8(
        _ field: StaticString, prefix: LengthPrefix, limit: Int? = nil
    ) throws(Failure) -> String {
        let start = position
        let utf8 = try readBytes(field, prefix: prefix, limit: limit)
        // Decoding from a buffer is the standard library's fast path (validating a slice runs a
        // generic, unspecialized validator); decoding repairs what is not UTF-8, so the same bytes
        // coming back mean there was nothing to repair.
        let decoded = utf8.withUnsafeBufferPointer { bytes -> String? in
            var text = String(decoding: bytes, as: UTF8.self)
            return text.withUTF8 { Self.sameBytes($0, bytes) } ? text : nil
        }
        guard let text = decoded else {
            throw Failure(.invalidUTF8(field: field.description, offset: start))
        }
        return text
    }

    /// Whether two buffers hold the same bytes, compared eight at a time (the generic
    /// `elementsEqual` steps through iterators a byte at a time: every key of a delta comes here).
    @usableFromInline
    static func sameBytes(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
        let (lhsRaw, rhsRaw) = (UnsafeRawPointer(left), UnsafeRawPointer(right))
        var offset = 0
        while lhs.count - offset >= 8 {
            if lhsRaw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != rhsRaw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        while offset < lhs.count {
            if left[offset] != right[offset] { return false }
            offset += 1
        }
        return true
    }
}

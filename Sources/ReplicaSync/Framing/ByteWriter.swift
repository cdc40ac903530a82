/// Appends big-endian integers, length-prefixed text and byte strings to a buffer.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int = 64) {
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func write<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write(raw: some Collection<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    /// Text with a 16-bit length prefix, cut at a character boundary to `limit` bytes so the
    /// receiver's limit is never exceeded by a long name.
    mutating func write(text: String, limit: Int = SyncMessage.textLimit) {
        var length = 0
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            guard length + width <= limit else { break }
            length += width
        }
        write(UInt16(length))
        bytes.append(contentsOf: text.utf8.prefix(length))
    }

    /// Bytes with a 32-bit length prefix.
    mutating func write(blob: [UInt8]) {
        write(UInt32(clamping: blob.count))
        bytes.append(contentsOf: blob)
    }
}

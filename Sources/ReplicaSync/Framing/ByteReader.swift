/// Reads a frame payload field by field; every read is checked against the bytes that remain, so
/// no length or count the peer sent is trusted before it is proven to fit.
struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    var remaining: Int { bytes.endIndex - position }

    mutating func readUInt8(_ field: String) throws(SyncProtocolError) -> UInt8 {
        try require(1, field)
        defer { position += 1 }
        return bytes[position]
    }

    mutating func read<T: FixedWidthInteger>(_ type: T.Type, _ field: String) throws(SyncProtocolError) -> T {
        let size = MemoryLayout<T>.size
        try require(size, field)
        var value: T = 0
        for offset in 0..<size {
            value = (value << 8) | T(bytes[position + offset])
        }
        position += size
        return value
    }

    mutating func readRaw(count: Int, _ field: String) throws(SyncProtocolError) -> [UInt8] {
        try require(count, field)
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    /// Text with a 16-bit length prefix, at most `limit` bytes.
    mutating func readText(_ field: String, limit: Int) throws(SyncProtocolError) -> String {
        let length = Int(try read(UInt16.self, field))
        guard length <= limit else { throw .fieldTooLarge(field: field, size: length, limit: limit) }
        let utf8 = try readRaw(count: length, field)
        guard let text = String(validating: utf8, as: UTF8.self) else { throw .invalidText(field: field) }
        return text
    }

    /// Bytes with a 32-bit length prefix; the length must fit in what is left of the frame.
    mutating func readBlob(_ field: String) throws(SyncProtocolError) -> [UInt8] {
        let length = Int(try read(UInt32.self, field))
        return try readRaw(count: length, field)
    }

    /// Everything left in the payload.
    mutating func readRest() -> [UInt8] {
        defer { position = bytes.endIndex }
        return Array(bytes[position...])
    }

    func finish(_ messageType: String) throws(SyncProtocolError) {
        guard remaining == 0 else { throw .trailingBytes(messageType: messageType, count: remaining) }
    }

    private func require(_ count: Int, _ field: String) throws(SyncProtocolError) {
        guard count >= 0, count <= remaining else {
            throw .truncatedField(field: field, needed: count, available: remaining)
        }
    }
}

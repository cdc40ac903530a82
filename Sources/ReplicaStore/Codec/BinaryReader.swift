/// Reads what `BinaryWriter` wrote, from untrusted bytes: every read is bounds-checked, and counts
/// are checked against the bytes left before anything is built from them.
struct BinaryReader {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var remaining: Int { bytes.count - offset }

    mutating func readByte() throws -> UInt8 {
        guard offset < bytes.count else { throw BinaryDecodingError.truncated(offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readVarint() throws -> UInt64 {
        let start = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte()
            if shift == 63 && byte > 1 { throw BinaryDecodingError.invalid(what: "varint", offset: start) }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw BinaryDecodingError.invalid(what: "varint", offset: start) }
        }
    }

    mutating func readFixed() throws -> UInt64 {
        guard remaining >= 8 else { throw BinaryDecodingError.truncated(offset: offset) }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << UInt64(index * 8) }
        offset += 8
        return value
    }

    /// A count of elements that each take at least `minimumSize` bytes: refused if the bytes left
    /// cannot hold that many, so a hostile count never drives an allocation or a long loop.
    mutating func readCount(minimumSize: Int = 1) throws -> Int {
        let start = offset
        let count = try readVarint()
        guard count <= UInt64(remaining / max(minimumSize, 1)) else {
            throw BinaryDecodingError.invalid(what: "count \(count)", offset: start)
        }
        return Int(count)
    }

    mutating func readString() throws -> String {
        let start = offset
        let length = try readCount()
        let slice = bytes[offset..<(offset + length)]
        offset += length
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw BinaryDecodingError.invalid(what: "UTF-8 string", offset: start)
        }
        return text
    }

    mutating func readDouble() throws -> Double {
        Double(bitPattern: try readFixed())
    }

    /// Checks the format tag at the start of a message.
    mutating func expectHeader(_ header: [UInt8], name: String) throws {
        guard remaining >= header.count, Array(bytes[offset..<(offset + header.count)]) == header else {
            throw BinaryDecodingError.wrongFormat(expected: name)
        }
        offset += header.count
    }

    func expectEnd() throws {
        if remaining != 0 { throw BinaryDecodingError.trailingBytes(offset: offset) }
    }
}

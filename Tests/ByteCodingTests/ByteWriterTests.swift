import ByteCoding
import Testing

/// What the writer puts down, byte for byte: the stored and sent formats depend on it.
@Suite struct ByteWriterTests {
    /// Bytes to keep come in an array of their size, whatever room writing them grew into.
    @Test(arguments: [0, 1, 15, 17, 100, 1_000, 5_000])
    func bytesToKeepAreInAnArrayOfTheirSize(count: Int) {
        var writer = ByteWriter()
        for index in 0..<count { writer.writeByte(UInt8(truncatingIfNeeded: index)) }
        let kept = writer.bytesAtTheirSize
        #expect(kept == writer.bytes)
        #expect(kept.capacity <= count + 48)
        var reserved = ByteWriter(reservingCapacity: 4_096)
        reserved.writeBytes([1, 2, 3])
        #expect(reserved.bytesAtTheirSize == [1, 2, 3] && reserved.bytesAtTheirSize.capacity <= 3 + 48)
    }

    @Test func fixedWidthsInBothOrders() {
        var writer = ByteWriter()
        writer.writeFixed(UInt32(0x0102_0304), .bigEndian)
        writer.writeFixed(UInt64(0x0102_0304_0506_0708), .littleEndian)
        writer.writeFixed(Int32(-3), .bigEndian)
        writer.writeFixed(UInt16(0xABCD), .littleEndian)
        #expect(
            writer.bytes == [1, 2, 3, 4] + [8, 7, 6, 5, 4, 3, 2, 1] + [0xFF, 0xFF, 0xFF, 0xFD] + [0xCD, 0xAB])
    }

    @Test func prefixesAreTheLengthInBytes() {
        var writer = ByteWriter()
        writer.writeUTF8("é", prefix: .varint)
        writer.writeUTF8("é", prefix: .uint16(.bigEndian))
        writer.writeBytes([7], prefix: .uint32(.bigEndian))
        writer.writeCount(300, prefix: .varint)
        #expect(writer.bytes == [2, 0xC3, 0xA9] + [0, 2, 0xC3, 0xA9] + [0, 0, 0, 1, 7] + [0xAC, 0x02])
    }

    @Test func longTextIsCutAtAScalarBoundary() throws {
        var writer = ByteWriter()
        // "aé✏": 1 + 2 + 3 bytes; a limit of 5 keeps "aé", never half of "✏".
        writer.writeUTF8("aé✏", prefix: .uint16(.bigEndian), truncatingTo: 5)
        #expect(writer.bytes == [0, 3, 0x61, 0xC3, 0xA9])
        var reader = ByteReader<ByteCodingError>(writer.bytes)
        #expect(try reader.readUTF8("text", prefix: .uint16(.bigEndian), limit: 5) == "aé")
    }

    @Test func textIsCutToWhatAFixedPrefixHolds() throws {
        let long = String(repeating: "ab", count: 40_000)
        var writer = ByteWriter()
        writer.writeUTF8(long, prefix: .uint16(.bigEndian))
        #expect(writer.bytes.count == 2 + Int(UInt16.max))
        var reader = ByteReader<ByteCodingError>(writer.bytes)
        #expect(try reader.readUTF8("text", prefix: .uint16(.bigEndian)).utf8.count == Int(UInt16.max))
    }

    @Test func reservingCapacityWritesNothing() {
        #expect(ByteWriter(reservingCapacity: 64).bytes.isEmpty)
    }
}

import ByteCoding
import Testing

/// Reads of untrusted bytes: canonical varints only, zigzag and fixed widths exact, every
/// truncation and impossible count refused with the field and the offset.
@Suite struct ByteReaderTests {
    typealias Reader = ByteReader<ByteCodingError>

    @Test(arguments: [
        UInt64(0), 1, 127, 128, 255, 300, 16_383, 16_384, UInt64(UInt32.max), UInt64.max >> 1, UInt64.max,
    ])
    func varintsRoundTrip(value: UInt64) throws {
        var writer = ByteWriter()
        writer.writeVarint(value)
        var reader = Reader(writer.bytes)
        #expect(try reader.readVarint("n") == value)
        #expect(reader.remaining == 0)
    }

    @Test func varintsAreLittleEndianSevenBitGroups() {
        var writer = ByteWriter()
        writer.writeVarint(300)
        writer.writeVarint(UInt64.max)
        #expect(writer.bytes == [0xAC, 0x02] + Array(repeating: 0xFF, count: 9) + [0x01])
    }

    @Test func overlongVarintsAreRefused() throws {
        for bytes: [UInt8] in [[0x80, 0x00], [0x81, 0x00], [0xFF, 0x80, 0x00], [0x80, 0x80, 0x80, 0x00]] {
            var reader = Reader([0x07] + bytes)
            #expect(throws: ByteCodingError.overlongVarint(field: "n", offset: 1)) {
                _ = try reader.readByte("tag")
                _ = try reader.readVarint("n")
            }
        }
        // A lone zero byte is the shortest form of 0.
        var zero = Reader([0x00])
        #expect(try zero.readVarint("n") == 0)
    }

    @Test func varintsOverSixtyFourBitsAreRefused() {
        let tenth: [UInt8] = Array(repeating: 0xFF, count: 9)
        for bytes in [tenth + [0x02], tenth + [0x81, 0x01], tenth + [0x80, 0x01]] {
            var reader = Reader(bytes)
            #expect(throws: ByteCodingError.varintOverflow(field: "n", offset: 0)) {
                try reader.readVarint("n")
            }
        }
    }

    @Test func truncatedVarintsSayWhereTheByteIsMissing() {
        var reader = Reader([0x05, 0x80, 0x80])
        #expect(throws: ByteCodingError.truncated(field: "n", offset: 3, needed: 1, available: 0)) {
            _ = try reader.readByte("tag")
            _ = try reader.readVarint("n")
        }
    }

    @Test func zigzagKeepsSmallMagnitudesShortAndCoversTheExtremes() throws {
        let cases: [(Int64, [UInt8])] = [
            (0, [0x00]), (-1, [0x01]), (1, [0x02]), (-2, [0x03]), (63, [0x7E]), (-64, [0x7F]),
            (64, [0x80, 0x01]),
        ]
        for (value, expected) in cases {
            var writer = ByteWriter()
            writer.writeZigzag(value)
            #expect(writer.bytes == expected, "zigzag \(value)")
        }
        for value in [Int64.min, Int64.min + 1, -1, 0, 1, Int64.max - 1, Int64.max] {
            var writer = ByteWriter()
            writer.writeZigzag(value)
            var reader = Reader(writer.bytes)
            #expect(try reader.readZigzag("z") == value)
            #expect(reader.remaining == 0)
        }
        var maxWriter = ByteWriter()
        maxWriter.writeZigzag(Int64.max)
        var minWriter = ByteWriter()
        minWriter.writeZigzag(Int64.min)
        // Int64.max is 2^64 - 2 zigzagged, Int64.min is 2^64 - 1: both ten bytes.
        #expect(maxWriter.bytes == [0xFE] + Array(repeating: 0xFF, count: 8) + [0x01])
        #expect(minWriter.bytes == Array(repeating: 0xFF, count: 9) + [0x01])
    }

    @Test func fixedWidthsReadInTheOrderAsked() throws {
        let bytes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]
        var big = Reader(bytes)
        #expect(try big.readFixed("a", as: UInt16.self, .bigEndian) == 0x0102)
        #expect(try big.readFixed("b", as: UInt32.self, .bigEndian) == 0x0304_0506)
        #expect(try big.readFixed("c", as: UInt8.self, .bigEndian) == 0x07)
        var little = Reader(bytes)
        #expect(try little.readFixed("d", as: UInt64.self, .littleEndian) == 0x0807_0605_0403_0201)
        var signed = Reader([0xFF, 0xFF, 0xFF, 0xFD, 0xFD, 0xFF, 0xFF, 0xFF, 0x80])
        #expect(try signed.readFixed("x", as: Int32.self, .bigEndian) == -3)
        #expect(try signed.readFixed("y", as: Int32.self, .littleEndian) == -3)
        #expect(try signed.readFixed("z", as: Int8.self, .bigEndian) == -128)
    }

    @Test func truncatedFixedWidthsAreRefusedWithWhatWasNeeded() {
        var reader = Reader([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07])
        #expect(throws: ByteCodingError.truncated(field: "peer", offset: 0, needed: 8, available: 7)) {
            try reader.readFixed("peer", as: UInt64.self, .bigEndian)
        }
        #expect(reader.offset == 0)
        #expect(throws: ByteCodingError.truncated(field: "nonce", offset: 0, needed: 32, available: 7)) {
            try reader.readBytes("nonce", count: 32)
        }
        var empty = Reader([])
        #expect(throws: ByteCodingError.truncated(field: "version", offset: 0, needed: 1, available: 0)) {
            try empty.readByte("version")
        }
    }

    @Test func countsLargerThanWhatRemainsAreRefusedBeforeAllocating() throws {
        // 2^63 - 1 pieces of at least 9 bytes, with nothing after.
        var huge = Reader(Array(repeating: 0xFF, count: 8) + [0x7F])
        #expect(
            throws: ByteCodingError.countExceedsRemaining(
                field: "pieces", offset: 0, count: 0x7FFF_FFFF_FFFF_FFFF, minimumBytes: 9, remaining: 0)
        ) { try huge.readCount("pieces", prefix: .varint, minimumBytes: 9) }
        // Three 8-byte points need 24 bytes; 23 are there.
        var points = Reader([0x00, 0x00, 0x00, 0x03] + Array(repeating: 0, count: 23))
        #expect(
            throws: ByteCodingError.countExceedsRemaining(
                field: "points", offset: 0, count: 3, minimumBytes: 8, remaining: 23)
        ) { try points.readCount("points", prefix: .uint32(.bigEndian), minimumBytes: 8) }
        var fits = Reader([0x00, 0x00, 0x00, 0x03] + Array(repeating: 0, count: 24))
        #expect(try fits.readCount("points", prefix: .uint32(.bigEndian), minimumBytes: 8) == 3)
    }

    @Test func countsOverTheLimitAreRefusedBeforeTheRemainingCheck() {
        var reader = Reader([0x04, 0x01, 0x61])
        #expect(throws: ByteCodingError.countOverLimit(field: "name", offset: 0, count: 1025, limit: 1024)) {
            try reader.readUTF8("name", prefix: .uint16(.bigEndian), limit: 1024)
        }
    }

    @Test func lengthPrefixedTextRoundTripsWithEveryPrefix() throws {
        let text = "Ünïcode ✏️ drawing"
        let prefixes: [LengthPrefix] = [
            .varint, .uint16(.bigEndian), .uint16(.littleEndian), .uint32(.bigEndian),
        ]
        for prefix in prefixes {
            var writer = ByteWriter()
            writer.writeUTF8(text, prefix: prefix)
            writer.writeBytes([1, 2, 3], prefix: prefix)
            var reader = Reader(writer.bytes)
            #expect(try reader.readUTF8("text", prefix: prefix) == text)
            #expect(try reader.readBytes("blob", prefix: prefix) == [1, 2, 3])
            #expect(reader.remaining == 0)
        }
    }

    @Test func truncatedTextIsACountThatDoesNotFit() {
        var reader = Reader([0x00, 0x05, 0x61, 0x62])
        #expect(
            throws: ByteCodingError.countExceedsRemaining(
                field: "name", offset: 0, count: 5, minimumBytes: 1, remaining: 2)
        ) { try reader.readUTF8("name", prefix: .uint16(.bigEndian)) }
    }

    /// A stray continuation byte, a cut sequence, an overlong form, a surrogate, a 5-byte form,
    /// the replacement character cut short, a stray byte after a real replacement character.
    static let invalidUTF8: [[UInt8]] = [
        [0xFF], [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x61, 0xF8, 0x88, 0x80, 0x80], [0xEF, 0xBF],
        [0xEF, 0xBF, 0xBD, 0x80],
    ]

    /// Text that holds the replacement character itself is valid and reads back as it is.
    @Test func theReplacementCharacterItselfReadsBack() throws {
        var writer = ByteWriter()
        writer.writeUTF8("a\u{FFFD}b\u{1F58C}", prefix: .varint)
        var reader = Reader(writer.bytes)
        #expect(try reader.readUTF8("text", prefix: .varint) == "a\u{FFFD}b\u{1F58C}")
    }

    @Test(arguments: invalidUTF8)
    func invalidUTF8IsRefusedAtThePrefix(utf8: [UInt8]) {
        var reader = Reader([0x09, UInt8(utf8.count)] + utf8)
        #expect(throws: ByteCodingError.invalidUTF8(field: "key", offset: 1)) {
            _ = try reader.readByte("version")
            _ = try reader.readUTF8("key", prefix: .varint)
        }
    }

    /// The repaired text is compared with the bytes eight at a time: a cut 4-byte sequence (which
    /// repairs to one replacement character of as many bytes as it had, so the lengths agree) is
    /// refused wherever it lies in a word or in the tail, and valid text of every length reads back.
    @Test func invalidUTF8IsFoundAtEveryOffsetOfTheWordCompare() throws {
        for length in 0..<24 {
            let valid = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            var reader = Reader([UInt8(length)] + valid)
            #expect(try reader.readUTF8("key", prefix: .varint) == String(decoding: valid, as: UTF8.self))
            for offset in 0...length {
                let cut = Array(valid[..<offset]) + [0xF0, 0x9F, 0x98] + valid[offset...]
                var reader = Reader([UInt8(cut.count)] + cut)
                #expect(throws: ByteCodingError.invalidUTF8(field: "key", offset: 0)) {
                    _ = try reader.readUTF8("key", prefix: .varint)
                }
            }
        }
    }

    @Test func theRestAndAStartingOffset() throws {
        var reader = Reader([9, 9, 0, 0, 0, 5, 1, 2], offset: 2)
        #expect(try reader.readFixed("length", as: UInt32.self, .bigEndian) == 5)
        #expect(Array(reader.readRest()) == [1, 2])
        #expect(reader.remaining == 0)
        #expect(reader.offset == 8)
    }

    @Test func errorsCarryTheFieldAndTheOffset() {
        let error = ByteCodingError.countExceedsRemaining(
            field: "pieces", offset: 27, count: 9, minimumBytes: 9, remaining: 3)
        #expect(error.field == "pieces")
        #expect(error.offset == 27)
        #expect(error.description.contains("pieces") && error.description.contains("27"))
    }
}

import ByteCoding
import Testing

/// `writeDecoded`, the packed strings' writer: a canonical text goes into the writer as its tag,
/// count and bytes (the same bytes `decode` gives); any other text leaves the writer untouched.
@Suite struct CanonicalBase64Tests {
    @Test(arguments: [1, 2, 3, 4, 150, 151, 152])
    func decodedBytesGoStraightIntoTheWriter(length: Int) throws {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let text = CanonicalBase64.encode(bytes)
        var writer = ByteWriter()
        writer.writeByte(0xAA)
        #expect(CanonicalBase64.writeDecoded(text, tag: 7, to: &writer))
        var expected = ByteWriter()
        expected.writeByte(0xAA)
        expected.writeByte(7)
        expected.writeBytes(try CanonicalBase64.decode(text), prefix: .varint)
        #expect(writer.bytes == expected.bytes)
    }

    @Test(arguments: ["", "A", "AB=", "A===", "AB=C", "ABC!", "AB==AAAA", "AR==", "ABD=", "QUJD\n"])
    func textThatIsNotCanonicalLeavesTheWriterAsItWas(text: String) {
        var writer = ByteWriter()
        writer.writeBytes([1, 2, 3])
        #expect(!CanonicalBase64.writeDecoded(text, tag: 7, to: &writer))
        #expect(writer.bytes == [1, 2, 3])
        // The empty text is canonical (no bytes), but a packed string holds at least one group.
        if !text.isEmpty { #expect((try? CanonicalBase64.decode(text)) == nil) }
    }
}

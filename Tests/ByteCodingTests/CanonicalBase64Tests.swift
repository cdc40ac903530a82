import ByteCoding
import Testing

/// `writeDecoded`, the packed strings' writer: a canonical text goes into the writer as its tag,
/// count and bytes (the same bytes `decode` gives); any other text leaves the writer untouched.
@Suite struct CanonicalBase64Tests {
    /// The encoder against RFC 4648's examples and, for every length up to 40 and a slice that
    /// does not start at zero, against a bit-by-bit encoding written out here.
    @Test func encodingGivesRFC4648sTextForEveryLengthAndSlice() throws {
        let examples = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
        ]
        for (plain, text) in examples { #expect(CanonicalBase64.encode(Array(plain.utf8)) == text) }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        func reference(_ bytes: ArraySlice<UInt8>) -> String {
            let bits = bytes.flatMap { byte in (0..<8).map { (byte >> (7 - $0)) & 1 } }
            var text = ""
            for start in stride(from: 0, to: bits.count, by: 6) {
                var index = 0
                for offset in 0..<6 {
                    index = index << 1 | Int(start + offset < bits.count ? bits[start + offset] : 0)
                }
                text.append(alphabet[index])
            }
            while text.count % 4 != 0 { text.append("=") }
            return text
        }
        let bytes = (0..<45).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
        for length in 0...40 {
            #expect(CanonicalBase64.encode(Array(bytes[..<length])) == reference(bytes[..<length]))
            let slice = bytes[3..<(3 + length)]
            #expect(CanonicalBase64.encode(slice) == reference(slice))
            #expect(try CanonicalBase64.decode(CanonicalBase64.encode(slice)) == Array(slice))
        }
    }

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

    /// Every group but the last is decoded in one pass that stops at a bad group; the error
    /// still names the first bad character, wherever it is, and a good text decodes whole.
    @Test func aCharacterOutsideTheAlphabetIsReportedWhereItIs() throws {
        let bytes = (0..<30).map { UInt8(truncatingIfNeeded: $0 &* 91 &+ 5) }
        let text = Array(CanonicalBase64.encode(bytes).utf8)
        #expect(try CanonicalBase64.decode(String(decoding: text, as: UTF8.self)) == bytes)
        for position in 0..<(text.count - 4) {
            for bad in ["!", "=", "\n"].map({ UInt8(ascii: Unicode.Scalar($0)!) }) {
                var damaged = text
                damaged[position] = bad
                // A second bad character later on: the first is the one reported.
                damaged[text.count - 5] = UInt8(ascii: "!")
                let error = #expect(throws: CanonicalBase64.Invalid.self) {
                    try CanonicalBase64.decode(String(decoding: damaged, as: UTF8.self))
                }
                #expect(error?.position == position)
            }
        }
    }
}

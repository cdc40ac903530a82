import JSONText
import TestSupport
import Testing

@Suite struct JSONStringTests {
    @Test func escapesQuotesBackslashesAndControlCharacters() {
        #expect(
            JSONString.quoted("\"\\/\n\r\t\u{08}\u{0C}\u{1}\u{1F}é😀")
                == #""\"\\/\n\r\t\b\f\u0001\u001Fé😀""#)
        #expect(JSONString.quoted("") == #""""#)
        #expect(JSONString.quoted("\u{7F}\u{2028}") == "\"\u{7F}\u{2028}\"")
    }

    @Test func writeAppends() {
        var output = "["
        JSONString.write("a\"b", to: &output)
        #expect(output == #"["a\"b""#)
    }

    @Test func seededRandomStringsReadBackThroughTheReader() throws {
        var generator = SplitMix64(seed: 0x0150_4E7E)
        let limits = JSONReader.Limits(maximumBytes: 1 << 16, maximumDepth: 1)
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                if let scalar = Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &generator)) {
                    text.unicodeScalars.append(scalar)
                } else {
                    let pieces = ["\"", "\\", "\u{0}", "\u{1F}", "é", "😀"]
                    text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
                }
            }
            let quoted = JSONString.quoted(text)
            #expect(try JSONReader.parse(quoted, limits: limits).value == .string(text), "\(quoted)")
        }
    }
}

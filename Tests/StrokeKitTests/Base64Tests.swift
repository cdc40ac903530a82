import StrokeKit
import TestSupport
import Testing

@Suite struct Base64Tests {
    /// The test vectors of RFC 4648, section 10.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func matchesTheRFCVectors(plain: String, encoded: String) throws {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(try Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test func allByteValuesSurviveARoundTrip() throws {
        let bytes = (0...255).map { UInt8($0) }
        let text = Base64.encode(bytes)
        #expect(text.hasSuffix("+/w=="))
        #expect(try Base64.decode(text) == bytes)
    }

    @Test func seededRandomBytesSurviveARoundTrip() throws {
        var generator = SplitMix64(seed: 3)
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            #expect(try Base64.decode(Base64.encode(bytes)) == bytes)
        }
    }

    @Test(arguments: [
        ("Zg=", 3), ("Zg", 2), ("Z===", 1), ("Zh==", 1), ("Zm9=", 2), ("Zg==Zg==", 2), ("Zm9v\n", 5),
        ("Zm-v", 2),
        ("Zm_v", 2), ("=Zm9", 0),
    ])
    func rejectsNonCanonicalText(text: String, position: Int) {
        #expect(throws: StrokeCodecError.invalidBase64(position: position)) { try Base64.decode(text) }
    }
}

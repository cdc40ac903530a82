import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

/// Untrusted bytes arrive from other peers: every one of them must decode or throw, never crash.
@Suite struct StrokeCodecHostileInputTests {
    /// Decodes and, when that succeeds, checks the result is a real group that survives its own
    /// round trip (so lenient decoding cannot smuggle in an unencodable value).
    func decodeOrThrow(_ bytes: [UInt8]) {
        do {
            let group = try StrokeGroupCodec.decode(bytes)
            #expect(!group.pieces.isEmpty)
            #expect((try? StrokeGroupCodec.decode(StrokeGroupCodec.encode(group))) == group)
        } catch {
            #expect(!error.message.isEmpty)
        }
    }

    @Test func tenThousandRandomByteStringsDecodeWithoutCrashing() {
        var generator = SplitMix64(seed: 2026)
        for round in 0..<10_000 {
            let length = Int.random(in: 0...(round % 10 == 0 ? 400 : 40), using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Half of them start like a real group so decoding gets past the header.
            if round % 2 == 0 {
                bytes = [0x01, 26] + Array("2026-03-25T16:20:14.127Z~a".utf8) + bytes
            }
            decodeOrThrow(bytes)
        }
    }

    @Test func everyTruncationOfValidEncodingsIsRefused() {
        var generator = SplitMix64(seed: 17)
        for _ in 0..<40 {
            let bytes = StrokeGroupCodec.encode(Fixtures.randomGroup(using: &generator))
            for length in 0..<bytes.count {
                #expect(throws: StrokeCodecError.self) {
                    try StrokeGroupCodec.decode(Array(bytes.prefix(length)))
                }
            }
        }
    }

    @Test func flippedAndReplacedBytesOfValidEncodingsDecodeOrThrow() {
        var generator = SplitMix64(seed: 23)
        for _ in 0..<200 {
            let bytes = StrokeGroupCodec.encode(Fixtures.randomGroup(using: &generator))
            for _ in 0..<20 {
                var mutated = bytes
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    let index = Int.random(in: 0..<mutated.count, using: &generator)
                    if Bool.random(using: &generator) {
                        mutated[index] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
                    } else {
                        mutated[index] = UInt8.random(in: 0...255, using: &generator)
                    }
                }
                decodeOrThrow(mutated)
            }
        }
    }

    @Test func randomTextNeverCrashesTheBase64Decoder() {
        var generator = SplitMix64(seed: 31)
        let alphabet = Array("ABCabc019+/=-_ \n!é".unicodeScalars)
        for _ in 0..<2000 {
            let length = Int.random(in: 0...24, using: &generator)
            var text = ""
            for _ in 0..<length {
                text.unicodeScalars.append(alphabet.randomElement(using: &generator) ?? "A")
            }
            do {
                let bytes = try Base64.decode(text)
                #expect(Base64.encode(bytes) == text)
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
    }
}

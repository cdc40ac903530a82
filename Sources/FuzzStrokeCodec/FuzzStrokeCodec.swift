import FuzzSupport
import StrokeKit

/// Fuzzes `StrokeGroupCodec.decode(_:)` and `decodeSweep(_:)` with raw bytes, and the base64 form
/// (`Base64.decode`, `EncodedGroup`) with the same bytes read as text.
///
/// Properties: any bytes either decode or throw a `StrokeCodecError` whose message can be built;
/// what decodes re-encodes to exactly the input bytes (one group, one encoding: the coordinator
/// relies on it to skip unchanged groups); the decoded group survives a base64 round trip and
/// equals itself decoded again; its fingerprint is the digest of those bytes (the encoding). Text
/// that decodes as base64 re-encodes to the same text. A sweep that decodes re-encodes to the input
/// too (one sweep, one stored value). Both versions are covered: version 1 (paths) and version 2
/// (text, and kinds from a newer build kept byte for byte), with seeds for each.
enum FuzzStrokeCodec: FuzzTarget {
    static func check(_ input: [UInt8]) {
        checkBinary(input)
        checkSweep(input)
        checkText(String(decoding: input, as: UTF8.self))
    }

    private static func checkBinary(_ input: [UInt8]) {
        let group: StrokeGroup
        do {
            group = try StrokeGroupCodec.decode(input)
        } catch {
            expect(!error.message.isEmpty, "an error without a message: \(error)")
            return
        }
        let encoded = StrokeGroupCodec.encode(group)
        expect(encoded == input, "decoded then re-encoded to different bytes: \(input) -> \(encoded)")
        let text = EncodedGroup(group).value
        expect(
            (try? StrokeGroupCodec.decode(Base64.decode(text))) == group,
            "the base64 form \(text) does not decode to the same group")
        expect(
            group.fingerprint == StrokeFingerprint(of: input), "the fingerprint is not the encoding's digest")
    }

    private static func checkSweep(_ input: [UInt8]) {
        let sweep: StrokeMask
        do {
            sweep = try StrokeGroupCodec.decodeSweep(input)
        } catch {
            expect(!error.message.isEmpty, "an error without a message: \(error)")
            return
        }
        let encoded = StrokeGroupCodec.encodeSweep(sweep)
        expect(encoded == input, "a sweep decoded then re-encoded to different bytes: \(input) -> \(encoded)")
    }

    private static func checkText(_ text: String) {
        let group: StrokeGroup
        do {
            group = try StrokeGroupCodec.decode(Base64.decode(text))
        } catch {
            expect(!error.message.isEmpty, "an error without a message: \(error)")
            return
        }
        let encoded = EncodedGroup(group).value
        expect(encoded == text, "base64 \(text) decoded then re-encoded as \(encoded)")
    }
}

#if !FUZZING
    @main extension FuzzStrokeCodec {}
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStrokeCodec(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzStrokeCodec.testOneInput(data, size)
}

import StrokeKit
import Testing

/// Inputs FuzzStrokeCodec found (fuzz/corpus/FuzzStrokeCodec/crash-*), spelled out.
struct StrokeCodecFuzzRegressionTests {
    private static let key = Array("1970-01-01T00:00:00.000Z~a".utf8)
    private static let header: [UInt8] = [0x01, UInt8(key.count)] + key + [0x01]
    /// flags (transform) · pen · colour 1 · width 4/16 · created +0
    private static let transformPiece: [UInt8] = [0x01, 0x00, 0x01, 0x04, 0x00]
    /// one point at (2, 2), time 0
    private static let onePoint: [UInt8] = [0x01, 0x20, 0x20, 0x00]

    /// The fuzzer's find: a piece that sets the transform flag with a (0, 0) transform decoded to
    /// a group whose encoding drops the flag, so one group had two encodings (and the coordinator
    /// would see a stored value differ from its own encoding of the same strokes).
    @Test func transformFlagWithZeroOffsetIsRefused() {
        #expect(throws: StrokeCodecError.zeroTransform(piece: 0)) {
            try StrokeGroupCodec.decode(Self.header + Self.transformPiece + [0x00, 0x00] + Self.onePoint)
        }
        #expect(StrokeCodecError.zeroTransform(piece: 0).message.contains("transform"))
    }

    @Test func transformFlagWithAnOffsetStillRoundTrips() throws {
        // dx = +1 unit (zigzag 2), dy = -1 unit (zigzag 1).
        let bytes = Self.header + Self.transformPiece + [0x02, 0x01] + Self.onePoint
        let group = try StrokeGroupCodec.decode(bytes)
        #expect(group.pieces[0].transform == StrokeTransform(dx: 1.0 / 16, dy: -1.0 / 16))
        #expect(StrokeGroupCodec.encode(group) == bytes)
    }

    @Test func theFuzzerInputItselfIsRefused() {
        let input: [UInt8] = [
            1, 31, 50, 48, 50, 54, 45, 48, 51, 45, 50, 53, 84, 49, 54, 58, 50, 48, 58, 49, 52, 46, 49, 50, 55,
            90,
            126, 51, 102, 97, 50, 99, 49, 2, 0, 1, 196, 32, 195, 5, 2, 32, 32, 0, 32, 0, 40, 3, 0, 1, 1, 0, 0,
            0, 3,
            212, 128, 1, 255, 255, 32, 80, 31, 211, 32, 40, 32, 32, 40, 1, 4, 1, 139, 1, 40,
        ]
        #expect(throws: StrokeCodecError.zeroTransform(piece: 1)) { try StrokeGroupCodec.decode(input) }
    }
}

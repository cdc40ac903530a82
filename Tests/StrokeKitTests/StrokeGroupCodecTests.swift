import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

@Suite struct StrokeGroupCodecTests {
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func seededRandomGroupsSurviveARoundTrip(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        for _ in 0..<100 {
            let group = Fixtures.randomGroup(using: &generator)
            #expect(try StrokeGroupCodec.decode(StrokeGroupCodec.encode(group)) == group)
            #expect(try StrokeGroupCodec.decode(Base64.decode(EncodedGroup(group).value)) == group)
        }
    }

    @Test func encodingIsDeterministic() throws {
        var generator = SplitMix64(seed: 11)
        for _ in 0..<100 {
            let group = Fixtures.randomGroup(using: &generator)
            let bytes = StrokeGroupCodec.encode(group)
            #expect(StrokeGroupCodec.encode(group) == bytes)
            // A group rebuilt from the decoded value gives the very same bytes.
            let decoded = try StrokeGroupCodec.decode(bytes)
            #expect(StrokeGroupCodec.encode(decoded) == bytes)
            #expect(EncodedGroup(decoded).value == EncodedGroup(group).value)
        }
    }

    @Test func roundTripKeepsContentMasksAndTransforms() throws {
        var stroke = Fixtures.stroke(
            [(1.5, 2.25), (3, 4), (-7.0625, 9)], width: 2.5, colour: 196, tool: .marker)
        stroke.mask = Fixtures.mask(radius: 1.25, [(2, 3), (2.5, 3.5)])
        stroke.transform = StrokeTransform(dx: -4, dy: 10.5)
        stroke.createdAtMilliseconds -= 3
        let group = Fixtures.group([stroke, Fixtures.stroke([(0, 0)])])
        let decoded = try StrokeGroupCodec.decode(StrokeGroupCodec.encode(group))
        #expect(decoded.key == group.key)
        #expect(decoded.pieces.count == 2)
        #expect(decoded.pieces[0].ink == Ink(tool: .marker, colour: 196, width: 2.5))
        #expect(decoded.pieces[0].path.map(\.point) == Fixtures.points([(1.5, 2.25), (3, 4), (-7.0625, 9)]))
        #expect(decoded.pieces[0].path.map(\.timeOffsetMilliseconds) == [0, 10, 20])
        #expect(decoded.pieces[0].mask == stroke.mask)
        #expect(decoded.pieces[0].transform == stroke.transform)
        #expect(decoded.pieces[0].createdAtMilliseconds == stroke.createdAtMilliseconds)
        #expect(decoded.pieces[1].mask.isEmpty)
    }

    /// Pins version 1 byte for byte: changing it breaks every stored drawing.
    @Test func versionOneLayoutIsStable() {
        let group = Fixtures.group([Fixtures.stroke([(1, 1), (2, 1)], key: Fixtures.key(0, peer: "a"))])
        let key = Array("1970-01-01T00:00:00.000Z~a".utf8)
        let expected: [UInt8] =
            [0x01, UInt8(key.count)] + key + [
                0x01, 0x00, 0x00, 0x01, 0x04, 0x00, 0x02, 0x20, 0x20, 0x00, 0x20, 0x00, 0x14,
            ]
        #expect(StrokeGroupCodec.encode(group) == expected)
        #expect(EncodedGroup(group).value == Base64.encode(expected))
    }

    @Test func encodingIsCompact() {
        // A 200-point freehand stroke of small steps: about 3 bytes a point.
        var generator = SplitMix64(seed: 8)
        var x = 10.0
        var y = 10.0
        let points = (0..<200).map { _ -> (Double, Double) in
            x += Double.random(in: -0.5...0.5, using: &generator)
            y += Double.random(in: -0.5...0.5, using: &generator)
            return (x, y)
        }
        let bytes = StrokeGroupCodec.encode(Fixtures.group([Fixtures.stroke(points)]))
        #expect(bytes.count < 200 * 4)
    }

    @Test(arguments: [
        "not valid base64!@#", "", "aGVsbG8=", "AA==", "AQ==", "ab=c", "abc", "a===", "aGVsbG9=", " aGVs",
    ])
    func invalidTextIsATypedErrorNotACrash(text: String) {
        #expect(throws: StrokeCodecError.self) { try StrokeGroupCodec.decode(Base64.decode(text)) }
    }

    @Test func errorsSayWhatWentWrong() {
        let group = Fixtures.group([Fixtures.stroke([(1, 1)])])
        var bytes = StrokeGroupCodec.encode(group)
        bytes[0] = 9
        #expect(throws: StrokeCodecError.unsupportedVersion(9)) { try StrokeGroupCodec.decode(bytes) }
        #expect(StrokeCodecError.unsupportedVersion(9).message.contains("version 9"))
        #expect(throws: StrokeCodecError.truncated(field: "version", offset: 0)) {
            try StrokeGroupCodec.decode([])
        }
        #expect(throws: StrokeCodecError.trailingBytes(count: 1)) {
            try StrokeGroupCodec.decode(StrokeGroupCodec.encode(group) + [0])
        }
    }

    @Test func absurdCountsAreRefusedBeforeAllocating() {
        let key = Array("1970-01-01T00:00:00.000Z~a".utf8)
        let header: [UInt8] = [0x01, UInt8(key.count)] + key
        let hugeCount: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]
        #expect(
            throws: StrokeCodecError.countTooLarge(
                field: "pieces", count: 0x7FFF_FFFF_FFFF_FFFF, remainingBytes: 0)
        ) {
            try StrokeGroupCodec.decode(header + hugeCount)
        }
        let piece: [UInt8] = [0x00, 0x00, 0x01, 0x04, 0x00]
        #expect(throws: StrokeCodecError.self) {
            try StrokeGroupCodec.decode(header + [0x01] + piece + hugeCount)
        }
        #expect(throws: StrokeCodecError.invalidKey(offset: 1)) {
            try StrokeGroupCodec.decode([0x01] + hugeCount)
        }
        #expect(throws: StrokeCodecError.emptyList(field: "pieces")) {
            try StrokeGroupCodec.decode(header + [0x00])
        }
    }

    @Test func overlongAndOverflowingNumbersAreRefused() {
        let key = Array("1970-01-01T00:00:00.000Z~a".utf8)
        let header: [UInt8] = [0x01, UInt8(key.count)] + key
        #expect(throws: StrokeCodecError.malformedVarint(field: "pieces", offset: header.count)) {
            try StrokeGroupCodec.decode(header + [0x81, 0x00])
        }
        #expect(throws: StrokeCodecError.malformedVarint(field: "pieces", offset: header.count)) {
            try StrokeGroupCodec.decode(
                header + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02])
        }
    }

    @Test func valuesOutsideTheModelAreRefused() {
        let key = Array("1970-01-01T00:00:00.000Z~a".utf8)
        let header: [UInt8] = [0x01, UInt8(key.count)] + key + [0x01]
        let point: [UInt8] = [0x01, 0x20, 0x20, 0x00]
        #expect(throws: StrokeCodecError.unknownTool(7, piece: 0)) {
            try StrokeGroupCodec.decode(header + [0x00, 0x07, 0x01, 0x04, 0x00] + point)
        }
        #expect(throws: StrokeCodecError.reservedFlags(0x04, piece: 0)) {
            try StrokeGroupCodec.decode(header + [0x04, 0x00, 0x01, 0x04, 0x00] + point)
        }
        #expect(throws: StrokeCodecError.valueOutOfRange(field: "width", value: 0)) {
            try StrokeGroupCodec.decode(header + [0x00, 0x00, 0x01, 0x00, 0x00] + point)
        }
        #expect(throws: StrokeCodecError.valueOutOfRange(field: "time offset", value: -1)) {
            try StrokeGroupCodec.decode(header + [0x00, 0x00, 0x01, 0x04, 0x00, 0x01, 0x20, 0x20, 0x01])
        }
    }
}

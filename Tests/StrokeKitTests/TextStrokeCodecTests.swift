import ByteCoding
import Foundation
import StrokeKit
import StrokeKitTestSupport
import Testing

/// Version 2 of the group codec (text, and kinds from newer builds) beside version 1.
@Suite struct TextStrokeCodecTests {
    /// `fuzz/corpus/FuzzStrokeCodec/valid-two-pieces-real-key`, written by the version-1 encoder
    /// before text existed (a marker piece, and a moved and masked pen piece).
    static let storedBeforeText: [UInt8] = [
        0x01, 0x1f, 0x32, 0x30, 0x32, 0x36, 0x2d, 0x30, 0x33, 0x2d, 0x32, 0x35, 0x54, 0x31, 0x36, 0x3a, 0x32,
        0x30, 0x3a, 0x31, 0x34, 0x2e, 0x31, 0x32, 0x37, 0x5a, 0x7e, 0x33, 0x66, 0x61, 0x32, 0x63, 0x31, 0x02,
        0x00, 0x01, 0xc4, 0x20, 0x05, 0x02, 0x20, 0x20, 0x00, 0x20, 0x00, 0x28, 0x03, 0x00, 0x01, 0x04, 0x00,
        0x20, 0x20, 0x03, 0x80, 0x01, 0x20, 0x50, 0x20, 0x20, 0x28, 0x20, 0x1f, 0x28, 0x01, 0x04, 0x01, 0x8c,
        0x01, 0x28,
    ]

    @Test func aGroupStoredBeforeTextDecodesToTheSameGroupAndFingerprint() throws {
        let group = try StrokeGroupCodec.decode(Self.storedBeforeText)
        let key = Fixtures.key()
        var marker = Fixtures.stroke(
            [(1, 1), (2, 1)], key: key, width: 2, colour: 196, tool: .marker, millisecondsApart: 20)
        marker.createdAtMilliseconds -= 3
        let path = [(4.0, 1.0, 40), (5, 2, 60), (6, 1, 80)].map {
            StrokePoint(x: $0.0, y: $0.1, timeOffsetMilliseconds: $0.2)
        }
        let pen = try #require(
            Stroke(
                key: key, ink: Ink(tool: .pen, colour: 1, width: 0.25), path: path,
                createdAtMilliseconds: key.creationMilliseconds, transform: StrokeTransform(dx: 1, dy: 1),
                mask: Fixtures.mask(radius: 0.25, [(4.375, 1.25)])))
        let fixed = try #require(StrokeGroup(key: key, pieces: [marker, pen]))
        #expect(group == fixed)
        #expect(StrokeGroupCodec.encode(group) == Self.storedBeforeText)
        #expect(
            group.fingerprint == StrokeFingerprint(high: 0x5118_C60B_ADD6_8A71, low: 0xE897_0B40_4465_29B3))
        #expect(EncodedGroup(group).value == Base64.encode(Self.storedBeforeText))
    }

    @Test func aGroupOfPathsIsStillWrittenAsVersionOne() {
        let group = Fixtures.group([Fixtures.stroke([(1, 1), (2, 1)])])
        #expect(StrokeGroupCodec.encode(group).first == StrokeGroupCodec.version)
    }

    @Test func textRoundTripsAsVersionTwo() throws {
        let text = Fixtures.text(
            "héllo 世界\n\nline three", at: (3, 4), colour: 196, transform: StrokeTransform(dx: 2, dy: -1),
            mask: Fixtures.mask(radius: 0.5, [(3.5, 4.5)]))
        let group = Fixtures.group([text])
        let bytes = StrokeGroupCodec.encode(group)
        #expect(bytes.first == StrokeGroupCodec.kindsVersion)
        let decoded = try StrokeGroupCodec.decode(bytes)
        #expect(decoded == group)
        #expect(decoded.base[0].text?.lines == ["héllo 世界", "", "line three"])
        #expect(decoded.base[0].origin == CanvasPoint(x: 3, y: 4))
        #expect(decoded.base[0].ink.colour == 196)
        #expect(StrokeGroupCodec.encode(decoded) == bytes)
        #expect(try StrokeGroupCodec.decode(Base64.decode(EncodedGroup(group).value)) == group)
    }

    /// Pins version 2 for text byte for byte.
    @Test func versionTwoTextLayoutIsStable() {
        let key = Fixtures.key(0, peer: "a")
        let group = Fixtures.group([Fixtures.text("hi", at: (1, 2), key: key, colour: 9)])
        let keyBytes = Array("1970-01-01T00:00:00.000Z~a".utf8)
        let body: [UInt8] = [0x00, 0x09, 0x00, 0x01, 0x02, 0x68, 0x69]
        let expected: [UInt8] =
            [0x02, UInt8(keyBytes.count)] + keyBytes + [0x01, 0x01, 0x20, 0x40, UInt8(body.count)] + body
        #expect(StrokeGroupCodec.encode(group) == expected)
    }

    /// A piece of kind 7 (a kind some newer build writes) next to text.
    static func groupWithUnknownKind() -> [UInt8] {
        let key = Array("1970-01-01T00:00:00.000Z~a".utf8)
        let text: [UInt8] = [0x00, 0x01, 0x00, 0x01, 0x01, 0x41]
        let unknown: [UInt8] = [0xde, 0xad, 0xbe, 0xef, 0x00]
        return [0x02, UInt8(key.count)] + key + [0x02]
            + [0x01, 0x00, 0x00, UInt8(text.count)] + text
            + [0x07, 0x40, 0x20, UInt8(unknown.count)] + unknown
    }

    @Test func aKindThisBuildDoesNotKnowIsKeptByteForByte() throws {
        let bytes = Self.groupWithUnknownKind()
        let group = try StrokeGroupCodec.decode(bytes)
        #expect(group.base.count == 2)
        guard case .unknown(let unknown) = group.base[1].kind else {
            Issue.record("the second piece should be of an unknown kind")
            return
        }
        #expect(unknown.code == 7)
        #expect(unknown.body == [0xde, 0xad, 0xbe, 0xef, 0x00])
        #expect(group.base[1].origin == CanvasPoint(x: 2, y: 1))
        #expect(StrokeGroupCodec.encode(group) == bytes)
        #expect(group.fingerprint == StrokeFingerprint(of: bytes))
    }

    @Test func hostileTextIsRefused() {
        let key = Array("1970-01-01T00:00:00.000Z~a".utf8)
        func group(body: [UInt8], kind: UInt8 = 0x01, declared: Int? = nil) -> [UInt8] {
            [0x02, UInt8(key.count)] + key + [0x01, kind, 0x00, 0x00, UInt8(declared ?? body.count)] + body
        }
        // flags · colour · created · one line of the given bytes
        func line(_ bytes: [UInt8]) -> [UInt8] { [0x00, 0x01, 0x00, 0x01, UInt8(bytes.count)] + bytes }
        #expect(throws: StrokeCodecError.invalidText(piece: 0, offset: 37)) {
            try StrokeGroupCodec.decode(group(body: line([0x41, 0x0A, 0x42])))  // a line feed inside a line
        }
        #expect(throws: StrokeCodecError.invalidText(piece: 0, offset: 37)) {
            try StrokeGroupCodec.decode(group(body: line([0x41, 0xCC, 0x81])))  // a combining mark
        }
        #expect(throws: StrokeCodecError.invalidText(piece: 0, offset: 37)) {
            try StrokeGroupCodec.decode(group(body: line([0x1B])))  // an escape
        }
        // Not UTF-8.
        #expect(throws: (any Error).self) { try StrokeGroupCodec.decode(group(body: line([0xC3]))) }
        // An empty last line.
        #expect(throws: StrokeCodecError.invalidText(piece: 0, offset: 40)) {
            try StrokeGroupCodec.decode(group(body: [0x00, 0x01, 0x00, 0x02, 0x01, 0x41, 0x00]))
        }
        #expect(throws: StrokeCodecError.pieceLength(piece: 0, declared: 7, used: 6)) {
            try StrokeGroupCodec.decode(group(body: line([0x41]) + [0x00]))
        }
        // Paths alone must be version 1; a path's anchor must be its first point.
        let path: [UInt8] = [0x00, 0x00, 0x01, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00]
        #expect(throws: StrokeCodecError.pathsInKindsVersion) {
            try StrokeGroupCodec.decode(group(body: path, kind: 0x00))
        }
        let withAnchor = [0x02, UInt8(key.count)] + key + [0x02, 0x00, 0x02, 0x00, UInt8(path.count)] + path
        #expect(throws: StrokeCodecError.anchorMismatch(piece: 0)) {
            try StrokeGroupCodec.decode(
                withAnchor + [0x01, 0x00, 0x00] + [UInt8(line([0x41]).count)] + line([0x41]))
        }
    }

    @Test func everyTruncationOfTextIsRefused() {
        let bytes = StrokeGroupCodec.encode(Fixtures.group([Fixtures.text("ab\ncd", at: (1, 1))]))
        for length in 0..<bytes.count {
            #expect(throws: (any Error).self) { try StrokeGroupCodec.decode(Array(bytes.prefix(length))) }
        }
    }

    /// The fuzz target's version-2 seeds are what their names say.
    @Test func theVersionTwoFuzzSeedsDecodeOrFailAsNamed() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fuzz/corpus/FuzzStrokeCodec")
        let names = [
            "valid-text-one-line", "valid-text-wide-two-lines", "valid-text-masked-moved",
            "valid-unknown-kind",
            "valid-unknown-kind-empty-body", "error-text-escape", "error-text-empty-last-line",
            "error-paths-in-version-2", "error-piece-length",
        ]
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
            if name.hasPrefix("valid-") {
                let group = try StrokeGroupCodec.decode(bytes)
                #expect(StrokeGroupCodec.encode(group) == bytes, "\(name)")
            } else {
                #expect(throws: StrokeCodecError.self, "\(name)") { try StrokeGroupCodec.decode(bytes) }
            }
        }
    }

    @Test func textDropsWhatACellCannotShow() {
        #expect(StrokeText("a\u{301}b\u{1B}c\u{200D}")?.lines == ["abc"])
        #expect(StrokeText("x\n\n")?.lines == ["x"])
        #expect(StrokeText("\u{301}\n") == nil)
        #expect(StrokeText("日本")?.width == 4)
    }
}

import ReplicaCore
import Testing

/// Bytes written by the builds before (replica delta and stored event list formats 1 and 2),
/// pinned here: they must still decode to the same events, and the current format 3 must carry
/// the same events in fewer bytes.
@Suite struct EventFormatFixtureTests {
    static let peer = PeerID(0x0102_0304_0506_0708)
    static let other = PeerID(0x1111_1111_1111_1111)

    /// A map marker, a value under it and a removed concurrent value at the same path.
    static let events = [
        DocumentEvent(
            dot: Dot(peer: peer, counter: 1),
            timestamp: HybridTimestamp(milliseconds: 1_700_000_000_000, counter: 0),
            path: ["strokes"], kind: .map, value: nil, context: VersionVector(), isRemoved: false),
        DocumentEvent(
            dot: Dot(peer: peer, counter: 2),
            timestamp: HybridTimestamp(milliseconds: 1_700_000_000_001, counter: 3),
            path: ["strokes", "k1"], kind: .value, value: .string("hi"), context: VersionVector([peer: 1]),
            isRemoved: false),
        DocumentEvent(
            dot: Dot(peer: other, counter: 1),
            timestamp: HybridTimestamp(milliseconds: 1_700_000_000_002, counter: 0),
            path: ["strokes", "k1"], kind: .value, value: nil, context: VersionVector([peer: 1]),
            isRemoved: true),
    ]

    /// "RD" format 1: collection "drawings", document "d1", the three events.
    static let deltaFormatOne = hex(
        "5244010864726177696e6773010264310308070605040302010180d095ffbc310001077374726f6b657301000008070605040302010281d095ffbc310302077374726f6b6573026b310002040268690108070605040302010111111111111111110182d095ffbc310002077374726f6b6573026b31000101080706050403020101"
    )
    /// A log or snapshot row of format 1: the three events.
    static let storedFormatOne = hex(
        "010308070605040302010180d095ffbc310001077374726f6b657301000008070605040302010281d095ffbc310302077374726f6b6573026b310002040268690108070605040302010111111111111111110182d095ffbc310002077374726f6b6573026b31000101080706050403020101"
    )

    /// "RD" format 2 of the same delta, as the build before format 3 wrote it.
    static let deltaFormatTwo = hex(
        "5244020864726177696e67730102643103020807060504030201111111111111111102077374726f6b6573026b31020100020001000280a0abfef9620000010000020203010804026869010002010102000104010000"
    )
    /// A log or snapshot row of format 2 (one event block) of the three events, from that build.
    static let storedFormatTwo = hex(
        "020103020807060504030201111111111111111102077374726f6b6573026b31020100020001000280a0abfef9620000010000020203010804026869010002010102000104010000"
    )

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }

    @Test func aFormatOneDeltaStillDecodesAndIsWrittenTheOldWayByteForByte() throws {
        let delta = try ReplicaDelta(decoding: Self.deltaFormatOne)
        #expect(
            delta
                == ReplicaDelta(
                    collection: "drawings", documents: [.init(documentID: "d1", events: Self.events)]))
        #expect(delta.encodedFormatOne() == Self.deltaFormatOne)
        // Format 3 of the same delta: another header, the same events, fewer bytes.
        let formatThree = delta.encoded()
        #expect(Array(formatThree.prefix(3)) == [0x52, 0x44, 0x03])
        #expect(try ReplicaDelta(decoding: formatThree) == delta)
        #expect(formatThree.count < Self.deltaFormatOne.count)
    }

    @Test func aFormatTwoDeltaStillDecodesAndIsWrittenTheOldWayByteForByte() throws {
        let delta = try ReplicaDelta(decoding: Self.deltaFormatTwo)
        #expect(
            delta
                == ReplicaDelta(
                    collection: "drawings", documents: [.init(documentID: "d1", events: Self.events)]))
        #expect(delta.encodedFormatTwo() == Self.deltaFormatTwo)
        // Its block is not stored as it came: the replica's rows hold format 3 blocks.
        #expect(delta.documents.first?.encodedBlock == nil)
        #expect(try ReplicaDelta(decoding: delta.encoded()).documents.first?.encodedBlock != nil)
        // No base64 here, and small counters: format 3 is no longer.
        #expect(delta.encoded().count <= Self.deltaFormatTwo.count)
    }

    @Test func aFormatTwoStoredRowStillDecodes() throws {
        var decoded: [DocumentEvent] = []
        #expect(try DocumentEvent.decodeList(Self.storedFormatTwo) { decoded.append($0) } == 3)
        #expect(decoded == Self.events)
        #expect(DocumentEvent.encodedList(Self.events).first == 3)
    }

    /// A stroke group as the app stores it: base64 text, which format 3 carries as its bytes.
    @Test func aBase64ValueTravelsAsItsBytesAndComesBackAsTheSameText() throws {
        var rng: UInt64 = 0x5EED
        func byte() -> UInt8 {
            rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: rng >> 33)
        }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        func base64(_ bytes: [UInt8]) -> String {
            var text = ""
            for start in stride(from: 0, to: bytes.count, by: 3) {
                let chunk = Array(bytes[start..<min(start + 3, bytes.count)]) + [0, 0]
                let triple = Int(chunk[0]) << 16 | Int(chunk[1]) << 8 | Int(chunk[2])
                let symbols = min(4, bytes.count - start + 1)
                for index in 0..<4 {
                    text.append(index < symbols ? alphabet[triple >> (18 - 6 * index) & 63] : "=")
                }
            }
            return text
        }
        func delta(_ value: String) -> ReplicaDelta { Self.oneValueDelta(.string(value)) }
        for length in [1, 2, 3, 4, 5, 150] {
            let text = base64((0..<length).map { _ in byte() })
            let packed = delta(text).encoded()
            #expect(try ReplicaDelta(decoding: packed) == delta(text), "\(length) bytes")
            #expect(try ReplicaDelta(decoding: packed).encoded() == packed)
            // Three bytes for every four characters, and a byte more for the count.
            #expect(
                delta(text).encodedFormatTwo().count - packed.count >= text.count - length - 1,
                "\(length) bytes")
        }
        // Not canonical (unused bits set, wrong padding, another alphabet, too short): kept as
        // text, and the same text comes back.
        for text in ["QR==", "QQ=", "Q===", "ab-_", "abc", "", "QUJD\n", "QUJDRB=="] {
            #expect(try ReplicaDelta(decoding: delta(text).encoded()) == delta(text), "\(text)")
        }
        // A format 2 delta cannot hold a packed value.
        var formatTwo = delta("QUJD").encoded()
        formatTwo[2] = 2
        #expect(throws: BinaryDecodingError.self) { try ReplicaDelta(decoding: formatTwo) }
    }

    /// A delta of one value written at `strokes.k`, as a stroke's write sends it.
    static func oneValueDelta(_ value: DocumentValue) -> ReplicaDelta {
        ReplicaDelta(
            collection: "drawings",
            documents: [
                .init(
                    documentID: "d1",
                    events: [
                        DocumentEvent(
                            dot: Dot(peer: peer, counter: 9),
                            timestamp: HybridTimestamp(milliseconds: 1_700_000_000_000, counter: 0),
                            path: ["strokes", "k"], kind: .value, value: value,
                            context: VersionVector([peer: 8]), isRemoved: false)
                    ])
            ])
    }

    @Test func aFormatOneStoredRowStillDecodes() throws {
        var decoded: [DocumentEvent] = []
        let count = try DocumentEvent.decodeList(Self.storedFormatOne) { decoded.append($0) }
        #expect(count == 3)
        #expect(decoded == Self.events)
        // Rows are written in format 3 now, and read back the same.
        let formatTwo = DocumentEvent.encodedList(Self.events)
        #expect(formatTwo.first == 3)
        var again: [DocumentEvent] = []
        try DocumentEvent.decodeList(formatTwo) { again.append($0) }
        #expect(again == Self.events)
        #expect(formatTwo.count < Self.storedFormatOne.count)
    }

    @Test func aRowOfReceivedBlocksAndEncodedEventsReadsAsAllOfThem() throws {
        // What applying a format 2 delta stores: its block as it came, then the events it changed.
        let delta = ReplicaDelta(
            collection: "drawings", documents: [.init(documentID: "d1", events: Self.events)])
        let block = try #require(try ReplicaDelta(decoding: delta.encoded()).documents.first?.encodedBlock)
        let removedForm = Self.events[1].removedForTest
        let row = DocumentEvent.encodedList(blocks: [block], then: [removedForm])
        var decoded: [DocumentEvent] = []
        #expect(try DocumentEvent.decodeList(row) { decoded.append($0) } == 4)
        #expect(decoded == Self.events + [removedForm])
        #expect(DocumentState(events: decoded).event(at: removedForm.dot)?.isRemoved == true)
    }

    @Test func everyTruncationOfAFormatThreeRowIsRefused() {
        let bytes = DocumentEvent.encodedList(Self.events)
        for length in 0..<bytes.count {
            #expect(throws: BinaryDecodingError.self) {
                try DocumentEvent.decodeList(Array(bytes.prefix(length))) { _ in }
            }
        }
    }
}

extension DocumentEvent {
    fileprivate var removedForTest: DocumentEvent {
        DocumentEvent(
            dot: dot, timestamp: timestamp, path: path, kind: kind, value: nil, context: context,
            isRemoved: true)
    }
}

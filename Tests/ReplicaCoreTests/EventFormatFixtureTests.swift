import ReplicaCore
import Testing

/// Bytes written by the build before event blocks (replica delta format 1, stored event list
/// format 1), pinned here: they must still decode to the same events, and the new format must
/// carry the same events in fewer bytes.
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
        // Format 2 of the same delta: another header, the same events, fewer bytes.
        let formatTwo = delta.encoded()
        #expect(Array(formatTwo.prefix(3)) == [0x52, 0x44, 0x02])
        #expect(try ReplicaDelta(decoding: formatTwo) == delta)
        #expect(formatTwo.count < Self.deltaFormatOne.count)
    }

    @Test func aFormatOneStoredRowStillDecodes() throws {
        var decoded: [DocumentEvent] = []
        let count = try DocumentEvent.decodeList(Self.storedFormatOne) { decoded.append($0) }
        #expect(count == 3)
        #expect(decoded == Self.events)
        // Rows are written in format 2 now, and read back the same.
        let formatTwo = DocumentEvent.encodedList(Self.events)
        #expect(formatTwo.first == 2)
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

    @Test func everyTruncationOfAFormatTwoRowIsRefused() {
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

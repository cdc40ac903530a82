import ByteCoding
import TestSupport
import Testing

@testable import ReplicaCore

/// The block writer for exactly one event (a local write's row) writes what the general writer
/// writes, byte for byte, so rows of either decode the same and the stored format is unchanged.
@Suite struct OneEventBlockTests {
    static let peers = [PeerID(3), PeerID(0x10), PeerID(0x7FFF_FFFF_FFFF_FFFF), PeerID(UInt64.max)]

    static func randomEvent(_ rng: inout SplitMix64) -> DocumentEvent {
        let peer = peers[Int(rng.next() % 4)]
        let counter = 1 + rng.next() % 300
        // Contexts with and without the event's own peer, before and after it.
        var context: [PeerID: UInt64] = [:]
        for other in peers where rng.next() % 2 == 0 {
            context[other] =
                other == peer ? max(1, counter - min(counter, 1 + rng.next() % 2)) : 1 + rng.next() % 1_000
        }
        if counter == 1 { context[peer] = nil }
        // Paths with a repeated component, the root, and components that are not ASCII.
        let components = ["strokes", "k", "k", "é~1", ""]
        let path = (0..<Int(rng.next() % 5)).map { _ in components[Int(rng.next() % 5)] }
        let kind = DocumentEvent.Kind(rawValue: UInt8(rng.next() % 3)) ?? .value
        let removed = rng.next() % 4 == 0
        let value: DocumentValue?
        // A canonical base64 string comes as its text or as its bytes (both are the same value).
        let bytes = (0..<(rng.next() % 160)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        switch rng.next() % 6 {
        case 0: value = .string(CanonicalBase64.encode(bytes))
        case 1: value = .string("not base64")
        case 2: value = .number(Double(rng.next() % 100) / 4)
        case 3: value = .object(["a": .bool(true)])
        case 4: value = .base64(bytes)
        default: value = nil
        }
        return DocumentEvent(
            dot: Dot(peer: peer, counter: counter),
            timestamp: HybridTimestamp(
                milliseconds: Int64(
                    bitPattern: rng.next() % 2 == 0 ? rng.next() : rng.next() % 2_000_000_000_000),
                counter: UInt32(truncatingIfNeeded: rng.next() % 3)),
            path: path, kind: kind, value: kind == .value ? value : nil, context: VersionVector(context),
            isRemoved: removed)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func oneEventIsWrittenAsTheGeneralWriterWritesItAndReadsBack(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<500 {
            let event = Self.randomEvent(&rng)
            let row = DocumentEvent.encodedList([event])
            // A stored row: format 3, one block.
            let general = DocumentEvent.encodedBlock([event], format: .three, withTables: true)
            #expect(row == [3, 1] + general, "\(event)")
            var decoded: [DocumentEvent] = []
            #expect(try DocumentEvent.decodeList(row) { decoded.append($0) } == 1)
            #expect(decoded == [event])
            // Format 2 (a delta's block for a peer of the build before) too.
            #expect(
                DocumentEvent.encodedBlock([event], format: .two, withTables: false)
                    == DocumentEvent.encodedBlock([event], format: .two, withTables: true))
        }
    }

    @Test func aRowOfALocalWriteKeepsItsBytes() throws {
        // A value written at strokes.k by peer 0x0102030405060708 after its first write: the
        // bytes the general writer gave this row before the one-event writer existed.
        let event = DocumentEvent(
            dot: Dot(peer: PeerID(0x0102_0304_0506_0708), counter: 2),
            timestamp: HybridTimestamp(milliseconds: 1_700_000_000_001, counter: 3),
            path: ["strokes", "k1"], kind: .value, value: .string("aGk="),
            context: VersionVector([PeerID(0x0102_0304_0506_0708): 1]), isRemoved: false)
        let expected: [UInt8] = [
            3, 1, 1, 1, 8, 7, 6, 5, 4, 3, 2, 1, 2, 7, 115, 116, 114, 111, 107, 101, 115, 2, 107, 49, 1, 2, 0,
            1,
            0, 4, 130, 160, 171, 254, 249, 98, 3, 0, 8, 7, 2, 104, 105, 1, 0, 0,
        ]
        #expect(DocumentEvent.encodedList([event]) == expected)
        var decoded: [DocumentEvent] = []
        try DocumentEvent.decodeList(expected) { decoded.append($0) }
        #expect(decoded == [event])
    }
}

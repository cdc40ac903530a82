import ReplicaCore
import ReplicaCoreTestSupport
import ReplicaStore
import TestSupport
import Testing

/// The binary encoding of deltas and version lists: round trips, determinism, hostile input.
@Suite struct ReplicaDeltaCodingTests {
    static func sampleReplica() throws -> ReplicaState {
        var replica = ReplicaState(peerID: PeerID(0xFEED_0000_0000_0001))
        var rng = SplitMix64(seed: 42)
        let workload = RandomWorkload(scope: .document)
        for step in 0..<200 { try workload.step(&replica, wall: Int64(step), &rng) }
        _ = try replica.execute(
            Statements.insert(.update),
            arguments: [
                "doc": .object([
                    "_id": .string("d0"), "name": .string("Ünïcode ✏️"),
                    "list": .array([.number(-1.5), .null, .bool(true), .object(["x": .string("y")])]),
                ])
            ], wall: 1_000)
        return replica
    }

    @Test func deltaAndVersionsRoundTripDeterministically() throws {
        let replica = try Self.sampleReplica()
        let delta = replica.changes(collection: "drawings", documentID: nil, since: DocumentVersions())
        let bytes = delta.encoded()
        #expect(try ReplicaDelta(decoding: bytes) == delta)
        #expect(try ReplicaDelta(decoding: bytes).encoded() == bytes)
        let versions = replica.versions(collection: "drawings", documentID: nil)
        #expect(try DocumentVersions(decoding: versions.encoded()) == versions)
        // A replica built from the decoded delta is the same replica.
        var copy = ReplicaState(peerID: PeerID(2))
        _ = try copy.apply(try ReplicaDelta(decoding: bytes), wall: 0)
        #expect(copy.allDocuments == replica.allDocuments)
    }

    @Test func everyTruncationAndRandomCorruptionFailsCleanly() throws {
        let bytes = try Self.sampleReplica().changes(
            collection: "drawings", documentID: "d0", since: DocumentVersions()
        ).encoded()
        for length in stride(from: 0, to: bytes.count - 1, by: 7) {
            #expect(throws: BinaryDecodingError.self) {
                try ReplicaDelta(decoding: Array(bytes.prefix(length)))
            }
        }
        var rng = SplitMix64(seed: 7)
        for _ in 0..<300 {
            var corrupt = bytes
            for _ in 0..<3 {
                corrupt[Int(rng.next() % UInt64(corrupt.count))] = UInt8(truncatingIfNeeded: rng.next())
            }
            _ = try? ReplicaDelta(decoding: corrupt)  // must not crash; may decode to something valid
            _ = try? DocumentVersions(decoding: corrupt)
        }
    }

    @Test func overlongVarintsAreRefusedSoEveryValueHasOneEncoding() throws {
        // "DV" v1 with no documents, its count written as a two-byte zero.
        #expect(try DocumentVersions(decoding: [0x44, 0x56, 0x01, 0x00]) == DocumentVersions())
        #expect(throws: BinaryDecodingError.invalid(what: "varint", offset: 3)) {
            try DocumentVersions(decoding: [0x44, 0x56, 0x01, 0x80, 0x00])
        }
    }

    @Test func hugeCountsAndDeepNestingAreRefusedWithoutAllocating() throws {
        // "RD" v1, empty collection name, then a document count of 2^63.
        let hugeCount: [UInt8] =
            [0x52, 0x44, 0x01, 0x00] + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]
        #expect(throws: BinaryDecodingError.self) { try ReplicaDelta(decoding: hugeCount) }
        let hugeVersions: [UInt8] = [0x44, 0x56, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]
        #expect(throws: BinaryDecodingError.self) { try DocumentVersions(decoding: hugeVersions) }
        #expect(throws: BinaryDecodingError.wrongFormat(expected: "a replica delta (format 1, 2 or 3)")) {
            try ReplicaDelta(decoding: [0x00, 0x01])
        }
        // One event whose value is 10,000 nested arrays.
        let event = DocumentEvent(
            dot: Dot(peer: PeerID(1), counter: 1), timestamp: .zero, path: ["a"], kind: .value, value: .null,
            context: VersionVector(), isRemoved: false)
        var bytes = ReplicaDelta(collection: "c", documents: [.init(documentID: "d", events: [event])])
            .encoded()
        let valueStart = bytes.count - 2  // the null value tag, then an empty context
        bytes.replaceSubrange(
            valueStart..<(valueStart + 1), with: Array(repeating: [5, 1], count: 10_000).flatMap { $0 } + [0])
        #expect(throws: BinaryDecodingError.self) { try ReplicaDelta(decoding: bytes) }
    }
}

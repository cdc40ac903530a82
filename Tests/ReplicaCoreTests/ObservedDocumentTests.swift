import ReplicaCore
import ReplicaCoreTestSupport
import TestSupport
import Testing

/// Reading one map of a document an entry at a time gives exactly the entries its fields show,
/// through writes, removals, concurrent writes from two peers, a register written over the map,
/// and a deleted document.
@Suite struct ObservedDocumentTests {
    static let key = DocumentKey(collection: "drawings", id: "d")

    func entries(_ document: ObservedDocument, ofMap name: String) -> [String: DocumentValue] {
        var entries: [String: DocumentValue] = [:]
        var calls = 0
        document.forEachEntry(ofMap: name) { key, value in
            entries[key] = value
            calls += 1
        }
        #expect(calls == entries.count)
        return entries
    }

    func expectEntriesMatchFields(_ replica: ReplicaState, sourceLocation: SourceLocation = #_sourceLocation)
    {
        let document = ObservedDocument(replica.document(Self.key))
        let fields = replica.fields("d")
        #expect(document.fields == fields, sourceLocation: sourceLocation)
        #expect(document.exists == (fields != nil), sourceLocation: sourceLocation)
        for name in ["strokes", "sweeps", "name"] {
            let expected = fields?[name]?.objectValue ?? [:]
            #expect(entries(document, ofMap: name) == expected, sourceLocation: sourceLocation)
            #expect(document.entryCapacity(ofMap: name) >= expected.count, sourceLocation: sourceLocation)
        }
    }

    @Test func theEntriesOfAMapAreThoseItsFieldsShowAfterRandomWrites() throws {
        for seed in UInt64(1)...20 {
            var random = SplitMix64(seed: seed)
            var a = ReplicaState(peerID: PeerID(0xA))
            var b = ReplicaState(peerID: PeerID(0xB))
            var wall: Int64 = 1
            for _ in 0..<60 {
                wall += 1
                var writer = Bool.random(using: &random) ? a : b
                let entry = "k\(Int.random(in: 0..<8, using: &random))"
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<5:
                    let map = Bool.random(using: &random) ? "strokes" : "sweeps"
                    _ = try writer.execute(
                        Statements.insert(.updateLocalDiff),
                        arguments: [
                            "doc": .object([
                                "_id": .string("d"), map: .object([entry: .string("v\(wall)")]),
                            ])
                        ], wall: wall)
                case 5..<8:
                    _ = try? writer.execute(
                        Statements.unset([["strokes", entry]]), arguments: ["id": .string("d")], wall: wall)
                case 8:
                    // A register over the map: the map shows no entries while it wins.
                    _ = try? writer.execute(
                        Statements.set(["name"]), arguments: ["id": .string("d"), "value": .string("n")],
                        wall: wall)
                    _ = try? writer.execute(
                        Statements.set(["strokes"]),
                        arguments: ["id": .string("d"), "value": .string("flat")],
                        wall: wall)
                default:
                    _ = try? writer.execute(Statements.delete(), arguments: ["id": .string("d")], wall: wall)
                }
                if writer.peerID == a.peerID { a = writer } else { b = writer }
                if Int.random(in: 0..<3, using: &random) == 0 {
                    try a.pull(from: b)
                    try b.pull(from: a)
                }
                expectEntriesMatchFields(a)
                expectEntriesMatchFields(b)
            }
        }
    }

    /// The document is read as it was when observed, whatever the replica does afterwards.
    @Test func aDocumentObservedEarlierKeepsWhatItShowedThen() throws {
        var replica = ReplicaState(peerID: PeerID(0xA))
        _ = try replica.execute(
            Statements.insert(),
            arguments: ["doc": .object(["_id": .string("d"), "strokes": .object(["k": .string("a")])])],
            wall: 1)
        let observed = ObservedDocument(replica.document(Self.key))
        _ = try replica.execute(
            Statements.set(["strokes", "k"]), arguments: ["id": .string("d"), "value": .string("b")], wall: 2)
        #expect(entries(observed, ofMap: "strokes") == ["k": .string("a")])
        #expect(!ObservedDocument(nil).exists)
        #expect(entries(ObservedDocument(nil), ofMap: "strokes").isEmpty)
    }
}

import ReplicaCore
import ReplicaCoreTestSupport
import TestSupport
import Testing

/// Compaction of causally stable removed events (`DocumentState.compact(stable:)`): it never
/// changes what a document shows, a dropped event that arrives again stays dropped, and seeded
/// random runs that compact at random points on random replicas (one replica offline for a
/// while, holding compaction back) show exactly what the same run without compaction shows.
@Suite struct CompactionTests {
    static let key = DocumentKey(collection: "drawings", id: "d")
    static let wall: Int64 = 1_000

    func write(_ replica: inout ReplicaState, _ strokes: [String: DocumentValue]) throws {
        _ = try replica.execute(
            Statements.insert(.updateLocalDiff),
            arguments: ["doc": .object(["_id": .string("d"), "strokes": .object(strokes)])], wall: Self.wall)
    }

    @Test func supersededValuesAndTombstonesGoAndTheDocumentShowsTheSame() throws {
        var a = ReplicaState(peerID: PeerID(1))
        for round in 0..<5 { try write(&a, ["k1": .number(Double(round)), "k2": .string("x\(round)")]) }
        _ = try a.execute(
            Statements.unset([["strokes", "k2"]]), arguments: ["id": .string("d")], wall: Self.wall)
        let before = try #require(a.document(Self.key))
        let dropped = a.compact(Self.key, stable: before.versionVector)
        let after = try #require(a.document(Self.key))
        #expect(after.fields == before.fields)
        #expect(after.versionVector == before.versionVector)
        // Four superseded values of each key, k2's last value and the UNSET itself.
        #expect(dropped.count == 10)
        #expect(after.events.values.allSatisfy { !$0.isRemoved })
    }

    @Test func nothingBeyondWhatEveryReplicaHoldsIsDropped() throws {
        var a = ReplicaState(peerID: PeerID(1))
        try write(&a, ["k": .string("old")])
        let acknowledged = try #require(a.document(Self.key)).versionVector
        let old = try #require(a.document(Self.key)?.events.values.first { $0.value == .string("old") })
        try write(&a, ["k": .string("new")])
        _ = try a.execute(
            Statements.unset([["strokes", "k"]]), arguments: ["id": .string("d")], wall: Self.wall)
        // The other replica holds only the first write: the old value goes (it holds it, and the
        // overwrite will reach it), the overwritten "new" and the UNSET stay until it has them.
        #expect(a.compact(Self.key, stable: acknowledged) == [old.dot])
        let document = try #require(a.document(Self.key))
        #expect(document.changes(since: acknowledged).count == 2)
        #expect(document.fields?["strokes"]?.objectValue?["k"] == nil)
        #expect(document.compacted == acknowledged)
    }

    @Test func aDroppedEventThatArrivesAgainStaysDropped() throws {
        var a = ReplicaState(peerID: PeerID(1))
        var b = ReplicaState(peerID: PeerID(2))
        try write(&a, ["k": .string("first")])
        let early = a.changes(collection: "drawings", documentID: nil, since: DocumentVersions())
        try write(&a, ["k": .string("second")])
        _ = try b.apply(
            a.changes(collection: "drawings", documentID: nil, since: DocumentVersions()), wall: Self.wall)
        let stable = try #require(b.document(Self.key)).versionVector
        #expect(!b.compact(Self.key, stable: stable).isEmpty)
        let compacted = try #require(b.document(Self.key))
        // The delta made before the overwrite carries the first value live; it must not return.
        #expect(try b.apply(early, wall: Self.wall) == .applied(newEvents: 0, changedDocumentIDs: []))
        #expect(b.document(Self.key) == compacted)
        #expect(b.document(Self.key)?.fields?["strokes"]?.objectValue?["k"] == .string("second"))
    }

    @Test func aDocumentCompactedToNothingKeepsItsVersionsSoItsDeleteHolds() throws {
        var a = ReplicaState(peerID: PeerID(1))
        try write(&a, ["k": .string("v")])
        let whole = a.changes(collection: "drawings", documentID: nil, since: DocumentVersions())
        _ = try a.execute(Statements.delete(), arguments: ["id": .string("d")], wall: Self.wall)
        let versions = a.versions(collection: "drawings", documentID: nil)
        a.compact(Self.key, stable: try #require(a.document(Self.key)).versionVector)
        #expect(a.document(Self.key)?.events.isEmpty == true)
        #expect(a.versions(collection: "drawings", documentID: nil) == versions)
        _ = try a.apply(whole, wall: Self.wall)
        #expect(a.document(Self.key)?.isVisible == false)
    }

    /// What every replica holds of a document: the pointwise minimum of their vectors.
    static func stable<Node>(_ harness: ConvergenceHarness<Node>, _ id: String) throws -> VersionVector {
        var result: VersionVector?
        for node in harness.nodes {
            let vector = try node.versions(of: harness.collection)[id]
            result = result.map { $0.meet(vector) } ?? vector
        }
        return result ?? VersionVector()
    }

    /// The seeded run: `count` replicas, the last of which hears nothing from operation 800
    /// to 2,000 (what it writes still goes out), so its vector holds compaction back to what it
    /// had; with `compacting`, a random replica compacts every document now and then. Returns the
    /// settled harness and the number of events compaction dropped.
    func run(seed: UInt64, compacting: Bool) throws -> (ConvergenceHarness<ReplicaState>, dropped: Int) {
        let count = 3 + Int(seed % 3)
        let replicas = (0..<count).map { ReplicaState(peerID: PeerID(seed &* 0x9E37_79B9 &+ UInt64($0) + 1)) }
        let workload = RandomWorkload(scope: .document)
        var harness = ConvergenceHarness(nodes: replicas, seed: seed)
        var choices = SplitMix64(seed: seed ^ 0xC0A1_E5CE)  // apart from the workload's generator
        let offline = count - 1
        var held: [(to: Int, delta: ReplicaDelta)] = []
        var operation = 0
        var dropped = 0
        try harness.run(operations: 3_000, workload: workload) { harness in
            operation += 1
            if (800..<2_000).contains(operation) {
                held += harness.queue.filter { $0.to == offline }
                harness.queue.removeAll { $0.to == offline }
            } else if operation == 2_000 {
                harness.queue += held
                held = []
            }
            guard compacting, choices.next() % 50 == 0 else { return }
            let node = Int(choices.next() % UInt64(harness.nodes.count))
            for id in workload.documentIDs {
                let key = DocumentKey(collection: harness.collection, id: id)
                dropped += harness.nodes[node].compact(key, stable: try Self.stable(harness, id)).count
            }
        }
        try harness.settle()
        return (harness, dropped)
    }

    @Test(arguments: UInt64(1)...50)
    func randomCompactionsConvergeToWhatTheRunWithoutThemShows(seed: UInt64) throws {
        let (reference, _) = try run(seed: seed, compacting: false)
        var (harness, dropped) = try run(seed: seed, compacting: true)
        #expect(dropped > 0, "the run never compacted anything, seed \(seed)")
        for index in harness.nodes.indices {
            for id in ["d0", "d1", "d2"] {
                #expect(
                    try harness.nodes[index].fields(id) == reference.nodes[index].fields(id),
                    "document \(id) on replica \(index), seed \(seed)")
            }
            #expect(
                try harness.nodes[index].versions(of: "drawings")
                    == reference.nodes[index].versions(of: "drawings"),
                "seed \(seed)")
        }
        // Once everyone holds everything, the same compaction everywhere leaves the same events.
        for id in ["d0", "d1", "d2"] {
            let stable = try Self.stable(harness, id)
            for index in harness.nodes.indices {
                harness.nodes[index].compact(DocumentKey(collection: "drawings", id: id), stable: stable)
            }
        }
        let first = harness.nodes[0].allDocuments
        for node in harness.nodes.dropFirst() { #expect(node.allDocuments == first, "seed \(seed)") }
    }
}

import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore
@testable import ReplicaStore

/// Taking a peer's whole state stores it as it came (one snapshot part: the received block, then
/// a block of what the replica holds beside it) and writes no log row that the snapshot would
/// delete; a large row is bound without a copy. Each must give what the core's own `adopt` and
/// `apply` give, in memory, after a reopen and to observers.
@Suite struct ReplicaWholeStateStorageTests {
    static let collection = "drawings"
    static let ids = ["d0", "d1", "d2"]

    /// What each document observer of `replica` heard after its first delivery.
    final class Heard {
        var patches: [String: [[DocumentPatch]]] = [:]
        var tokens: [ObservationToken] = []

        init(_ replica: Replica) {
            for id in ReplicaWholeStateStorageTests.ids {
                var first = true
                tokens.append(
                    replica.observeDocument(id, in: ReplicaWholeStateStorageTests.collection) {
                        [unowned self] in
                        if first {
                            first = false
                            return
                        }
                        if case .changed(let patches) = $0 { self.patches[id, default: []].append(patches) }
                    })
            }
        }
    }

    @Test(arguments: Array(UInt64(1)...UInt64(16)))
    func aWholeStateTakenGivesWhatTheCoreGivesInMemoryAfterAReopenAndToObservers(seed: UInt64) throws {
        var rng = SplitMix64(seed: 0xAD0_0000 + seed)
        let workload = RandomWorkload(scope: .document)
        var a = try StoredNode(peer: 0xA0)
        var b = try StoredNode(peer: 0xB0)
        var wall: Int64 = 1_000
        for _ in 0..<40 {
            wall += 7
            try workload.step(&a, wall: wall, &rng)
        }
        // Odd seeds: B held part of A's history and wrote concurrently (values that conflict,
        // UNSETs, deletes); even seeds: B is a newcomer holding nothing.
        if seed % 2 == 1 {
            _ = try b.merge(
                try a.changes(in: Self.collection, since: try b.versions(of: Self.collection)), wall: wall)
            for _ in 0..<30 {
                wall += 7
                try workload.step(&a, wall: wall, &rng)
                if rng.next() % 2 == 0 { try workload.step(&b, wall: wall, &rng) }
            }
        }
        // A has heard of no peer, so it compacts everything removed, and B cannot be sent a delta.
        _ = try a.replica.compact()
        let whole = try #require(
            a.replica.fullState(
                collection: Self.collection, documentID: nil, since: try b.versions(of: Self.collection)),
            "seed \(seed): nothing was compacted")
        let received = try ReplicaFullState(decoding: whole.encoded())
        #expect(received.delta.documents.allSatisfy { $0.encodedBlock != nil })

        var expected = b.replica.state
        var expectedPatches: [String: [[DocumentPatch]]] = [:]
        for document in whole.delta.documents {
            let key = DocumentKey(collection: Self.collection, id: document.documentID)
            let paths = try expected.adopt(
                fullState: document.events, compacted: whole.compacted[document.documentID], into: key,
                wall: b.clock.now)
            if !paths.isEmpty { expectedPatches[key.id] = [expected.patches(of: key, changedPaths: paths)] }
        }
        let heard = Heard(b.replica)
        _ = try b.replica.adopt(received)
        #expect(b.replica.state.allDocuments == expected.allDocuments, "seed \(seed)")
        #expect(heard.patches == expectedPatches, "seed \(seed)")
        for id in Self.ids {
            let key = DocumentKey(collection: Self.collection, id: id)
            #expect(b.replica.state.document(key)?.compacted == expected.document(key)?.compacted)
        }
        // The adopt wrote no log row; the snapshot holds everything, as a reopen shows.
        #expect(
            try b.replica.database.connection.cached("SELECT count(*) FROM batches").run() == [[.integer(0)]])
        heard.tokens.forEach { $0.cancel() }
        try b.reopen()
        #expect(try b.snapshot() == expected.allDocuments, "seed \(seed)")
        // And it goes on: B writes, A takes B's delta, both show the same.
        wall += 7
        try workload.step(&b, wall: wall, &rng)
        _ = try a.merge(
            try b.changes(in: Self.collection, since: try a.versions(of: Self.collection)), wall: wall)
        for id in Self.ids { #expect(try a.fields(id) == b.fields(id), "seed \(seed), \(id)") }
    }

    @Test func aLargeAppliedDeltaIsStoredWholeAndReadBackAfterAReopen() throws {
        var a = try StoredNode(peer: 0xA1)
        var b = try StoredNode(peer: 0xB1)
        var strokes: [String: DocumentValue] = [:]
        for index in 0..<600 {
            strokes["s\(index)"] = .string(String(repeating: "ab", count: 100) + "\(index)")
        }
        try a.run(
            Statements.insert(.updateLocalDiff),
            ["doc": .object(["_id": .string("d0"), "strokes": .object(strokes)])], wall: 5_000)
        let delta = try a.changes(in: Self.collection, since: try b.versions(of: Self.collection))
        // Far above the size that is bound in place.
        #expect(delta.encoded().count > 100_000)
        _ = try b.merge(delta, wall: 5_000)
        let record = try b.replica.database.connection.cached("SELECT record FROM batches").run()
        guard case .blob(let bytes)? = record.first?.first else {
            Issue.record("no log row")
            return
        }
        #expect(bytes.count > 100_000)
        try b.reopen()
        #expect(try b.snapshot() == a.snapshot())
        #expect(try b.fields("d0")?["strokes"] == .object(strokes))
        // A small row after it binds as before (the large one's binding was cleared).
        try b.run(
            Statements.set(["strokes", "s1"]), ["id": .string("d0"), "value": .string("x")], wall: 6_000)
        try b.reopen()
        #expect(try b.fields("d0")?["strokes"]?.objectValue?["s1"] == .string("x"))
    }
}

import ReplicaCore
import ReplicaCoreTestSupport
import TestSupport
import Testing

/// `DocumentState(resolved:)`, the load of a snapshot's events in their stored form: for seeded
/// random documents (concurrent writes, UNSETs, DELETEs, deltas delayed and reordered, so some
/// removals wait for events not yet held) it builds exactly the state that integrating the same
/// events builds: the events and their forms, the version vector, and at every path the live
/// events and the removal facts later events are checked against.
@Suite struct ResolvedLoadTests {
    /// A random run left unsettled, with each replica's documents as they were half-way (what an
    /// early snapshot part holds) and at the end.
    func run(seed: UInt64) throws -> (
        early: [[DocumentKey: DocumentState]], late: [[DocumentKey: DocumentState]]
    ) {
        let replicas = (0..<3).map { ReplicaState(peerID: PeerID(seed &* 0x51_7CC1 &+ UInt64($0) + 1)) }
        var harness = ConvergenceHarness(nodes: replicas, seed: seed)
        var early: [[DocumentKey: DocumentState]] = []
        var step = 0
        try harness.run(operations: 600, workload: RandomWorkload(scope: .document)) { harness in
            step += 1
            if step == 300 { early = harness.nodes.map(\.allDocuments) }
        }
        return (early, harness.nodes.map(\.allDocuments))
    }

    func events(of document: DocumentState?) -> [DocumentEvent] {
        var events: [DocumentEvent] = []
        document?.forEachEvent { events.append($0) }
        return events
    }

    @Test(arguments: UInt64(1)...50)
    func aResolvedLoadEqualsIntegratingTheSameEvents(seed: UInt64) throws {
        let (early, late) = try run(seed: seed)
        var rng = SplitMix64(seed: seed)
        var documents = 0
        var removed = 0
        for (replica, states) in late.enumerated() {
            for (key, document) in states {
                documents += 1
                let held = events(of: document)
                removed += held.filter(\.isRemoved).count
                // In dot order, as a checkpoint writes them, and in a random order.
                let integrated = DocumentState(events: held)
                #expect(DocumentState(resolved: held).isIdentical(to: integrated), "seed \(seed), \(key.id)")
                #expect(integrated.fields == document.fields)
                var shuffled = held
                shuffled.shuffle(using: &rng)
                #expect(
                    DocumentState(resolved: shuffled).isIdentical(to: DocumentState(events: shuffled)),
                    "seed \(seed), \(key.id), shuffled")
                // Parts written at different moments of one checkpoint: an earlier form of some
                // events, then every event as it is now (removed forms win).
                let parts = events(of: early[replica][key]) + held
                let loaded = DocumentState(resolved: parts)
                #expect(
                    loaded.isIdentical(to: DocumentState(events: parts)), "seed \(seed), \(key.id), parts")
                #expect(loaded.fields == document.fields)
                #expect(loaded.versionVector == document.versionVector)
            }
        }
        #expect(documents > 0 && removed > 0, "seed \(seed) made nothing to load")
    }

    /// A drawing-shaped document from two writers: long runs of strokes under `strokes`, sweeps
    /// two levels down under `sweeps`, strokes overwritten, UNSET and written again concurrently.
    func drawing(seed: UInt64) throws -> DocumentState {
        var rng = SplitMix64(seed: seed)
        var a = ReplicaState(peerID: PeerID(1))
        var b = ReplicaState(peerID: PeerID(2))
        let id: [String: DocumentValue] = ["id": .string("d")]
        for round in 0..<6 {
            for (index, replica) in [0, 1].enumerated() {
                var strokes: [String: DocumentValue] = [:]
                for stroke in 0..<Int.random(in: 20...200, using: &rng) {
                    strokes["k\(1_000 + stroke + round * 7)-\(index)"] = .string("v\(round)-\(stroke)")
                }
                let sweeps: [String: DocumentValue] = [
                    "k1001-\(index)": .object(["s\(round)": .string("sweep \(round)")])
                ]
                let document: DocumentValue = .object([
                    "_id": .string("d"), "strokes": .object(strokes), "sweeps": .object(sweeps),
                ])
                if replica == 0 {
                    _ = try a.execute(
                        Statements.insert(.updateLocalDiff), arguments: ["doc": document], wall: Int64(round))
                } else {
                    _ = try b.execute(
                        Statements.insert(.updateLocalDiff), arguments: ["doc": document], wall: Int64(round))
                }
            }
            let unset = [["strokes", "k\(1_000 + round)-0"], ["sweeps", "k1001-1"]]
            _ = try a.execute(Statements.unset(unset), arguments: id, wall: Int64(round))
            if round % 2 == 1 { try a.pull(from: b) } else { try b.pull(from: a) }
        }
        try a.pull(from: b)
        return try #require(a.document(DocumentKey(collection: "drawings", id: "d")))
    }

    @Test(arguments: UInt64(1)...8)
    func runsUnderOneMapLoadAsTheirEventsOneByOne(seed: UInt64) throws {
        let document = try drawing(seed: seed)
        let held = events(of: document)
        #expect(held.count > 500 && held.contains(where: \.isRemoved), "seed \(seed) made too little to load")
        // Whole, in dot order (long runs), as parts of several records, and with an earlier live
        // form of every removed event listed before it in the same record.
        let integrated = DocumentState(events: held)
        #expect(DocumentState(resolved: held).isIdentical(to: integrated))
        var parts = DocumentState()
        var start = 0
        var rng = SplitMix64(seed: seed)
        while start < held.count {
            let end = min(held.count, start + Int.random(in: 1...300, using: &rng))
            parts.loadResolved(contentsOf: Array(held[start..<end]))
            start = end
        }
        #expect(parts.isIdentical(to: integrated))
        var early = held.map { event -> DocumentEvent in
            guard event.isRemoved, event.kind == .value else { return event }
            var live = event
            live.isRemoved = false
            live.value = .string("before")
            return live
        }
        early += held
        #expect(DocumentState(resolved: early).isIdentical(to: DocumentState(events: early)))
        #expect(DocumentState(resolved: early).fields == document.fields)
    }
}

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
}

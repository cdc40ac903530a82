import ReplicaCore
import ReplicaStore
import TestSupport
import Testing

/// Seeded random convergence on the in-memory core: 3 to 5 replicas, 10,000 random statements,
/// deltas delayed, duplicated, reordered and refused; after anti-entropy every replica is the same
/// and every write that add-wins says survives is there.
@Suite struct ConvergenceTests {
    static func check<Node: ConvergenceNode>(_ harness: ConvergenceHarness<Node>, seed: UInt64) throws {
        let reference = try harness.nodes[0].snapshot()
        #expect(!reference.isEmpty)
        for node in harness.nodes.dropFirst() {
            let other = try node.snapshot()
            #expect(other == reference, "replicas differ, seed \(seed)")
            for id in ["d0", "d1", "d2"] {
                #expect(try node.fields(id) == harness.nodes[0].fields(id), "document \(id), seed \(seed)")
            }
        }
        for (key, document) in reference {
            // A projection checks existence without rendering; it must agree with the rendering.
            #expect(
                document.hasFields == (document.fields != nil), "\(key.id): hasFields disagrees, seed \(seed)"
            )
            let wrong = ConvergenceOracle.mismatches(in: document)
            #expect(wrong.isEmpty, "\(key.id): removal state wrong for \(wrong.prefix(5)), seed \(seed)")
        }
    }

    @Test(arguments: UInt64(1)...50)
    func randomOperationsConverge(seed: UInt64) throws {
        let count = 3 + Int(seed % 3)
        let replicas = (0..<count).map { ReplicaState(peerID: PeerID(seed &* 0x9E37_79B9 &+ UInt64($0) + 1)) }
        var harness = ConvergenceHarness(nodes: replicas, seed: seed)
        try harness.run(operations: 10_000, workload: RandomWorkload(scope: .document))
        #expect(harness.refusals > 0, "the run never exercised a refused delta")
        try harness.settle()
        try Self.check(harness, seed: seed)
    }
}

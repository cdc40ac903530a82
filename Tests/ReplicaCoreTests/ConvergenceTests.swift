import ReplicaCore
import ReplicaCoreTestSupport
import TestSupport
import Testing

/// Seeded random convergence on the in-memory core: 3 to 5 replicas, 10,000 random statements,
/// deltas delayed, duplicated, reordered and refused; after anti-entropy every replica is the same
/// and every write that add-wins says survives is there.
@Suite struct ConvergenceTests {
    @Test(arguments: UInt64(1)...50)
    func randomOperationsConverge(seed: UInt64) throws {
        let count = 3 + Int(seed % 3)
        let replicas = (0..<count).map { ReplicaState(peerID: PeerID(seed &* 0x9E37_79B9 &+ UInt64($0) + 1)) }
        var harness = ConvergenceHarness(nodes: replicas, seed: seed)
        try harness.run(operations: 10_000, workload: RandomWorkload(scope: .document))
        #expect(harness.refusals > 0, "the run never exercised a refused delta")
        try harness.settle()
        try harness.expectConverged(seed: seed)
    }
}

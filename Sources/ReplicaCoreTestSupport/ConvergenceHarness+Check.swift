import ReplicaCore
import Testing

extension ConvergenceHarness {
    /// Every replica holds the same documents, and every write that add-wins says survives is
    /// there (the oracle); a failure is recorded as a test issue naming the seed.
    public func expectConverged(seed: UInt64) throws {

        let reference = try nodes[0].snapshot()
        #expect(!reference.isEmpty)
        for node in nodes.dropFirst() {
            let other = try node.snapshot()
            #expect(other == reference, "replicas differ, seed \(seed)")
            for id in ["d0", "d1", "d2"] {
                #expect(try node.fields(id) == nodes[0].fields(id), "document \(id), seed \(seed)")
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
}

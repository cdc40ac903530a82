import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore
@testable import ReplicaStore

/// A SQLite-backed replica in a temporary directory, driven by the convergence harness; after the
/// run it is closed and reopened, so what is compared is what reached the disk.
struct StoredNode: ConvergenceNode {
    let directory: TemporaryDirectory
    let clock: ManualClock
    var replica: Replica

    /// Small snapshot parts (`smallCheckpoints`), so checkpoints start and stop often in a short run.
    let smallCheckpoints: Bool

    init(peer: UInt64, smallCheckpoints: Bool = false) throws {
        directory = try TemporaryDirectory()
        clock = ManualClock(0)
        self.smallCheckpoints = smallCheckpoints
        replica = try Replica(
            directory: directory.path, configuration: Self.configuration(clock, peer, smallCheckpoints))
    }

    static func configuration(_ clock: ManualClock, _ peer: UInt64, _ small: Bool) -> ReplicaConfiguration {
        var configuration = clock.configuration(peer: peer)
        if small {
            configuration.checkpointPartEvents = 5
            configuration.checkpointMinimumLogEvents = 8
            // Compaction drops events (and the harness has no full-state exchange): the index a
            // reload builds then lacks the facts of what went, which is compared elsewhere.
            configuration.compactsAutomatically = false
            // Every delta of new events is stored while it merges, as its block and a row of
            // what the merge changed besides: the reload reads both.
            configuration.concurrentWriteMinimumBytes = 1
        }
        return configuration
    }

    func fields(_ id: String) throws -> [String: DocumentValue]? {
        try replica.execute(Statements.select(), arguments: ["id": .string(id)]).documents.first.map { row in
            row.filter { $0.key != "_id" }
        }
    }

    mutating func run(_ statement: DQLStatement, _ arguments: [String: DocumentValue], wall: Int64) throws {
        clock.now = wall
        try replica.execute(statement, arguments: arguments)
    }

    func versions(of collection: String) throws -> DocumentVersions {
        try replica.versions(collection: collection, documentID: nil)
    }

    func changes(in collection: String, since: DocumentVersions) throws -> ReplicaDelta {
        try replica.changes(collection: collection, documentID: nil, since: since)
    }

    mutating func merge(_ delta: ReplicaDelta, wall: Int64) throws -> ApplyOutcome {
        clock.now = wall
        // Through the wire format, as sync sends it.
        return try replica.apply(try ReplicaDelta(decoding: delta.encoded()))
    }

    func snapshot() throws -> [DocumentKey: DocumentState] {
        replica.state.allDocuments
    }

    mutating func reopen() throws {
        let peer = replica.peerID.rawValue
        replica = try Replica.openReadOnly(directory: directory.path)  // the writer is released below
        replica = try Replica(
            directory: directory.path, configuration: Self.configuration(clock, peer, smallCheckpoints))
    }
}

@Suite struct StoredConvergenceTests {
    @Test(arguments: [UInt64(901), 902, 903])
    func sqliteReplicasConvergeAndKeepItAcrossReopen(seed: UInt64) throws {
        // No other reference to the nodes: reopening needs the writers released.
        var harness = ConvergenceHarness(
            nodes: try (0..<3).map { try StoredNode(peer: seed * 100 + UInt64($0) + 1) }, seed: seed)
        try harness.run(operations: 1_500, workload: RandomWorkload(scope: .document))
        try harness.settle()
        let before = try harness.nodes.map { try $0.snapshot() }
        for index in harness.nodes.indices { try harness.nodes[index].reopen() }
        #expect(
            try harness.nodes.map { try $0.snapshot() } == before, "reopen changed a replica, seed \(seed)")
        try harness.expectConverged(seed: seed)
    }

    /// Reopened in the middle of a run (removals still waiting for events not held yet), with
    /// checkpoint steps at random points (so a reopen reads snapshots, unfinished ones and log
    /// rows), every document loads identical to the one in memory before: the same events and
    /// forms, vectors, and at every path the same live events and removal facts.
    @Test(arguments: [UInt64(911), 912, 913, 914])
    func aReopenLoadsTheSameIndexAsIntegrating(seed: UInt64) throws {
        var harness = ConvergenceHarness(
            nodes: try (0..<3).map {
                try StoredNode(peer: seed * 100 + UInt64($0) + 1, smallCheckpoints: true)
            },
            seed: seed)
        var choices = SplitMix64(seed: seed ^ 0x5EED)
        var step = 0
        var reopened = 0
        var snapshots = 0
        try harness.run(operations: 1_200, workload: RandomWorkload(scope: .document)) { harness in
            step += 1
            let node = Int(choices.next() % UInt64(harness.nodes.count))
            for _ in 0..<Int(choices.next() % 3) { harness.nodes[node].replica.backgroundStep() }
            guard step % 150 == 0 else { return }
            for index in harness.nodes.indices {
                let before = harness.nodes[index].replica.state.allDocuments
                try harness.nodes[index].reopen()
                let after = harness.nodes[index].replica.state.allDocuments
                snapshots +=
                    harness.nodes[index].replica.storedDocuments.values.filter { $0.generation > 0 }.count
                #expect(Set(after.keys) == Set(before.keys), "seed \(seed), step \(step)")
                for (key, document) in before {
                    #expect(
                        after[key]?.isIdentical(to: document) == true, "seed \(seed), step \(step), \(key.id)"
                    )
                }
                reopened += 1
            }
        }
        #expect(reopened == 24 && snapshots > 0, "seed \(seed) never reopened a snapshot")
        try harness.settle()
        try harness.expectConverged(seed: seed)
    }
}

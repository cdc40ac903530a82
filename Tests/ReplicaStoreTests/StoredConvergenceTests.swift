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

    init(peer: UInt64) throws {
        directory = try TemporaryDirectory()
        clock = ManualClock(0)
        replica = try Replica(directory: directory.path, configuration: clock.configuration(peer: peer))
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
        replica = try Replica(directory: directory.path, configuration: clock.configuration(peer: peer))
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
}

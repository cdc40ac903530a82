import EventRuntime
import RelayStore
import ReplicaCore
import ReplicaCoreTestSupport
import TestSupport
import Testing

/// A real poll loop and connections to a fresh database of the suite's throwaway cluster.
final class PostgresTestLoop {
    let loop: PollEventLoop
    let cluster: PostgresCluster
    let database: String

    init() throws {
        cluster = try PostgresCluster.shared.get()
        database = try cluster.createDatabase()
        loop = try PollEventLoop(clock: .system)
    }

    /// Runs the loop until `condition` holds; records a failure naming `what` after 20 s.
    func wait(for what: String, _ condition: () -> Bool) {
        if !loop.run(until: condition, timeout: .seconds(20)) {
            Issue.record("timed out waiting for \(what)")
        }
    }

    /// Listens for `store`'s notices and waits until LISTEN is in place, which must succeed.
    func listen(
        _ store: RelayEventStore, ignoringOwn: Bool = false, onNotice: @escaping (CommitNotice) -> Void
    ) {
        var listening: PostgresError??
        store.listen(ignoringOwn: ignoringOwn, onNotice: onNotice) { listening = .some($0) }
        wait(for: "LISTEN") { listening != nil }
        if case .some(.some(let failure)) = listening { Issue.record("LISTEN failed: \(failure)") }
    }

    /// Connects over the loop and waits for the outcome.
    func connect(url: String? = nil) throws -> (PostgresConnection?, PostgresError?) {
        var outcome: PostgresError??
        let connection = try PostgresConnection(url: url ?? cluster.url(database: database), loop: loop) {
            outcome = .some($0)
        }
        wait(for: "the connection") { outcome != nil }
        let failure = outcome ?? nil
        return (failure == nil ? connection : nil, failure)
    }

    func connected() throws -> PostgresConnection {
        let (connection, failure) = try connect()
        if let failure { throw failure }
        return try #require(connection)
    }

    /// Sends one statement and waits for its answer.
    func run(_ connection: PostgresConnection, _ sql: String, _ parameters: [PostgresValue] = []) throws
        -> PostgresRows
    {
        var outcome: Result<PostgresRows, PostgresError>?
        connection.send(sql, parameters, operation: "testing") { outcome = $0 }
        wait(for: sql) { outcome != nil }
        return try #require(outcome).get()
    }

    func openStore(databaseID: String, connection: PostgresConnection? = nil) throws -> RelayEventStore {
        let connection = try connection ?? connected()
        var outcome: Result<RelayEventStore, PostgresError>?
        RelayEventStore.open(databaseID: databaseID, connection: connection) { outcome = $0 }
        wait(for: "the store to open") { outcome != nil }
        return try #require(outcome).get()
    }

    func commit(_ store: RelayEventStore, _ deltas: [ReplicaDelta]) throws -> Int {
        var outcome: Result<Int, PostgresError>?
        store.commit(deltas) { outcome = $0 }
        wait(for: "the commit") { outcome != nil }
        return try #require(outcome).get()
    }

    func commit(_ store: RelayEventStore, writes: [RelayWrite]) throws -> Int {
        var outcome: Result<Int, PostgresError>?
        store.commit(writes) { outcome = $0 }
        wait(for: "the commit") { outcome != nil }
        return try #require(outcome).get()
    }

    func changes(
        _ store: RelayEventStore, documentID: String? = nil, since: DocumentVersions = DocumentVersions()
    ) throws -> ReplicaDelta {
        try rows(store, documentID: documentID, since: since).delta
    }

    /// Every row a relay holding `since` and having read the whole states `known` lacks.
    func rows(
        _ store: RelayEventStore, documentID: String? = nil, since: DocumentVersions = DocumentVersions(),
        known: [String: Set<[UInt8]>] = [:]
    ) throws -> StoredRows {
        var outcome: Result<StoredRows, PostgresError>?
        store.changes(collection: "drawings", documentID: documentID, since: since, known: known) {
            outcome = $0
        }
        wait(for: "the read") { outcome != nil }
        return try #require(outcome).get()
    }
}

/// Three replicas writing at random, each write's delta delivered to the others at once: the
/// deltas as they were sent (live events) and the replicas' final, equal state.
struct RecordedWrites {
    var deltas: [ReplicaDelta] = []
    var final: ReplicaState

    init(seed: UInt64, operations: Int) throws {
        var rng = SplitMix64(seed: seed)
        // One peer id above 2^63: PostgreSQL orders it as a negative bigint.
        var nodes = [1, 0x7000_0000_0000_0002, 0xF000_0000_0000_0003].map { ReplicaState(peerID: PeerID($0)) }
        let workload = RandomWorkload(scope: .document)
        for step in 0..<operations {
            let index = Int(rng.next() % 3)
            let before = nodes[index].versions(collection: "drawings", documentID: nil)
            try workload.step(&nodes[index], wall: Int64(step), &rng)
            let delta = nodes[index].changes(collection: "drawings", documentID: nil, since: before)
            guard !delta.isEmpty else { continue }
            deltas.append(delta)
            for other in nodes.indices where other != index {
                _ = try nodes[other].apply(delta, wall: Int64(step))
            }
        }
        final = nodes[0]
    }

    /// The final state as one delta per document: removed events in their removed form.
    var finalDeltas: [ReplicaDelta] {
        let all = final.changes(collection: "drawings", documentID: nil, since: DocumentVersions())
        return all.documents.map { ReplicaDelta(collection: "drawings", documents: [$0]) }
    }
}

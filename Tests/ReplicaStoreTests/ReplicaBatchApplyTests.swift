import ReplicaCore
import TestSupport
import Testing

@testable import ReplicaStore

/// `Replica.apply(_:)` of several deltas, a relay's group commit: one SQLite transaction and one
/// observer pass for all of them, each delta judged on its own, and nothing kept when the
/// transaction does not commit.
@Suite struct ReplicaBatchApplyTests {
    private let home: TemporaryDirectory
    private let clock = ManualClock()

    init() throws {
        home = try TemporaryDirectory(prefix: "batch-apply")
    }

    /// A writer's replica with one stroke of its own in `document`, and the delta that carries it.
    private func writer(_ peer: UInt64, document: String, strokes: Int = 1) throws -> (Replica, ReplicaDelta)
    {
        let replica = try Replica(
            directory: home.path + "/writer-\(peer)", configuration: clock.configuration(peer: peer))
        for index in 0..<strokes {
            clock.now += 1
            try replica.execute(
                "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE",
                arguments: [
                    "doc": .object([
                        "_id": .string(document), "strokes": .object(["s\(peer)-\(index)": .string("ink")]),
                    ])
                ])
        }
        return (
            replica, try replica.changes(collection: "drawings", documentID: nil, since: DocumentVersions())
        )
    }

    /// The documents a delta changed when it brought new events; nil for anything else.
    private static func appliedDocuments(_ outcome: Result<ApplyOutcome, any Error>) -> [String]? {
        guard case .success(.applied(let newEvents, let documents)) = outcome, newEvents > 0 else {
            return nil
        }
        return documents
    }

    private func batchRows(in directory: String) throws -> Int64 {
        let connection = try SQLiteConnection(
            path: directory + "/" + ReplicaDatabase.fileName, readOnly: true, busyTimeoutMilliseconds: 1_000)
        return try connection.run("SELECT count(*) FROM batches").first?.first?.integer ?? -1
    }

    private func strokes(_ replica: Replica, _ document: String) throws -> Set<String> {
        let rows = try replica.execute(
            "SELECT * FROM drawings WHERE _id = :id", arguments: ["id": .string(document)]
        ).documents
        return Set(rows.first?["strokes"]?.objectValue?.keys.map { $0 } ?? [])
    }

    @Test func severalDeltasAreOneTransactionAndOneObserverPass() throws {
        let deltas = try [(1, "shared"), (2, "shared"), (3, "shared"), (4, "other")].map {
            try writer(UInt64($0.0), document: $0.1).1
        }
        let relay = try Replica(
            directory: home.path + "/relay", configuration: clock.configuration(peer: 0x10))
        var passes: [Set<String>] = []
        let token = relay.onCommit { passes.append(Set($0.changedPaths.keys.map(\.id))) }
        let rowsBefore = try batchRows(in: relay.directory)

        let outcomes = try relay.apply(deltas)
        #expect(outcomes.map(Self.appliedDocuments) == [["shared"], ["shared"], ["shared"], ["other"]])
        #expect(passes == [["shared", "other"]])
        // One commit is one log row per document: two, where four commits would have written four.
        #expect(try batchRows(in: relay.directory) - rowsBefore == 2)
        let reader = try Replica.openReadOnly(directory: relay.directory)
        #expect(try strokes(reader, "shared") == ["s1-0", "s2-0", "s3-0"])
        #expect(try strokes(reader, "other") == ["s4-0"])
        token.cancel()
    }

    @Test func aMalformedOrGappedDeltaDoesNotKeepTheOthersOut() throws {
        let good = try writer(1, document: "shared").1
        var malformed = try writer(2, document: "shared").1
        // An event that claims to have seen itself: no honest peer writes it.
        malformed.documents[0].events[0].context = VersionVector([PeerID(2): 1])
        // The second of two writes without the first: a gap, refused whole.
        var gapped = try writer(3, document: "other", strokes: 2).1
        gapped.documents[0].events.removeFirst()
        let alsoGood = try writer(4, document: "other").1
        let relay = try Replica(
            directory: home.path + "/relay", configuration: clock.configuration(peer: 0x10))
        var passes = 0
        let token = relay.onCommit { _ in passes += 1 }

        let outcomes = try relay.apply([good, malformed, gapped, alsoGood])
        #expect(outcomes.count == 4)
        #expect(Self.appliedDocuments(outcomes[0]) == ["shared"])
        #expect(throws: ReplicaError.self) { try outcomes[1].get() }
        if case .success(.refused) = outcomes[2] {} else { Issue.record("\(outcomes[2])") }
        #expect(Self.appliedDocuments(outcomes[3]) == ["other"])
        #expect(passes == 1)
        let reader = try Replica.openReadOnly(directory: relay.directory)
        #expect(try strokes(reader, "shared") == ["s1-0"])
        #expect(try strokes(reader, "other") == ["s4-0"])
        #expect(
            try reader.versions(collection: "drawings", documentID: nil).vectors.keys.sorted() == [
                "other", "shared",
            ])
        token.cancel()
    }

    @Test func aBatchOfNothingNewCommitsNothingAndTellsNoObserver() throws {
        let delta = try writer(1, document: "shared").1
        let relay = try Replica(
            directory: home.path + "/relay", configuration: clock.configuration(peer: 0x10))
        _ = try relay.apply([delta])
        var passes = 0
        let token = relay.onCommit { _ in passes += 1 }
        let rows = try batchRows(in: relay.directory)
        let outcomes = try relay.apply([delta, delta])
        #expect(outcomes.allSatisfy { if case .success(.applied(0, [])) = $0 { true } else { false } })
        #expect(passes == 0)
        #expect(try batchRows(in: relay.directory) == rows)
        token.cancel()
    }
}

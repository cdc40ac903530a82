import ReplicaCore
import ReplicaCoreTestSupport
import ReplicaStore
import TestSupport
import Testing

/// DQL statements run against a SQLite-backed replica: conflict policies, transactions, observers.
@Suite struct ReplicaExecutionTests {
    let directory: TemporaryDirectory
    let clock = ManualClock()
    let replica: Replica

    init() throws {
        directory = try TemporaryDirectory()
        replica = try Replica(directory: directory.path, configuration: clock.configuration(peer: 0xAB))
    }

    static let drawing: DocumentValue = .object([
        "_id": .string("drawing-1"), "name": .string("Notes"),
        "strokes": .object(["k1": .string("s1"), "k2": .string("s2")]),
    ])

    func select() throws -> [[String: DocumentValue]] {
        try replica.execute(Statements.select(), arguments: ["id": .string("drawing-1")]).documents
    }

    @Test func insertThenSelectReturnsTheDocumentWithItsID() throws {
        let inserted = try replica.execute(Statements.insert(), arguments: ["doc": Self.drawing])
        #expect(inserted.affectedCount == 1)
        #expect(try select() == [Self.drawing.objectValue ?? [:]])
        let names = try replica.execute(
            .select(
                DQLSelect(
                    projection: .fields([DQLPath(["name"]), DQLPath(["strokes", "k2"])]),
                    collection: "drawings", filter: nil)))
        #expect(
            names.documents == [
                [
                    "_id": .string("drawing-1"), "name": .string("Notes"),
                    "strokes": .object(["k2": .string("s2")]),
                ]
            ])
    }

    @Test func insertOfAnExistingIDFailsByDefault() throws {
        try replica.execute(Statements.insert(), arguments: ["doc": Self.drawing])
        #expect(throws: ReplicaError.documentExists(collection: "drawings", id: "drawing-1")) {
            try replica.execute(Statements.insert(), arguments: ["doc": Self.drawing])
        }
    }

    @Test func updateLocalDiffOfIdenticalValuesChangesNothing() throws {
        try replica.execute(Statements.insert(), arguments: ["doc": Self.drawing])
        let before = try replica.versions(collection: "drawings", documentID: nil)
        var deliveries: [QueryResult] = []
        let token = try replica.observe(Statements.select(), arguments: ["id": .string("drawing-1")]) {
            deliveries.append($0)
        }
        var commits = 0
        let commitToken = replica.onCommit { _ in commits += 1 }
        let result = try replica.execute(
            Statements.insert(.updateLocalDiff), arguments: ["doc": Self.drawing])
        #expect(result.affectedCount == 0)
        #expect(try replica.versions(collection: "drawings", documentID: nil) == before)
        #expect(deliveries.count == 1)  // only the initial result
        #expect(commits == 0)
        // A real difference writes just that entry.
        var changed = Self.drawing.objectValue ?? [:]
        changed["strokes"] = .object(["k1": .string("s1"), "k2": .string("s2 edited")])
        try replica.execute(Statements.insert(.updateLocalDiff), arguments: ["doc": .object(changed)])
        let after = try replica.versions(collection: "drawings", documentID: nil)
        #expect(after["drawing-1"][replica.peerID] == before["drawing-1"][replica.peerID] + 1)
        #expect(deliveries.count == 2)
        #expect(commits == 1)
        withExtendedLifetime((token, commitToken)) {}
    }

    @Test func updatePolicyRewritesEveryGivenField() throws {
        try replica.execute(Statements.insert(), arguments: ["doc": Self.drawing])
        let before = try replica.versions(collection: "drawings", documentID: "drawing-1")["drawing-1"]
        try replica.execute(Statements.insert(.update), arguments: ["doc": Self.drawing])
        let after = try replica.versions(collection: "drawings", documentID: "drawing-1")["drawing-1"]
        #expect(after[replica.peerID] == before[replica.peerID] + 3)  // name, k1, k2
    }

    @Test func failureInATransactionRollsBackItsEarlierStatements() throws {
        try replica.execute(Statements.insert(), arguments: ["doc": Self.drawing])
        let before = try select()
        var deliveries = 0
        let token = try replica.observe(Statements.select(), arguments: ["id": .string("drawing-1")]) { _ in
            deliveries += 1
        }
        #expect(throws: ReplicaError.documentExists(collection: "drawings", id: "drawing-1")) {
            try replica.write { tx in
                try tx.execute(
                    Statements.unset([["strokes", "k1"]]), arguments: ["id": .string("drawing-1")])
                try tx.execute(Statements.insert(), arguments: ["doc": Self.drawing])  // DO FAIL: throws
            }
        }
        #expect(try select() == before)
        #expect(deliveries == 1)
        // Nothing reached the disk either.
        let reopened = try Replica.openReadOnly(directory: directory.path)
        #expect(
            try reopened.execute(Statements.select(), arguments: ["id": .string("drawing-1")]).documents
                == before)
        withExtendedLifetime(token) {}
    }

    @Test func unsetAndInsertInOneTransactionCommitTogether() throws {
        try replica.execute(Statements.insert(), arguments: ["doc": Self.drawing])
        var deliveries: [QueryResult] = []
        let token = try replica.observe(Statements.select(id: false)) { deliveries.append($0) }
        try replica.write { tx in
            try tx.execute(Statements.unset([["strokes", "k1"]]), arguments: ["id": .string("drawing-1")])
            try tx.execute(
                Statements.insert(.updateLocalDiff),
                arguments: [
                    "doc": .object(["_id": .string("drawing-1"), "strokes": .object(["k3": .string("s3")])])
                ])
        }
        #expect(deliveries.count == 2)  // initial, then one for the whole transaction
        #expect(
            deliveries.last?.documents.first?["strokes"]
                == .object(["k2": .string("s2"), "k3": .string("s3")]))
        withExtendedLifetime(token) {}
    }

    /// Readers of a large document re-read only what a commit touched: the commit names the
    /// paths, and one path can be read without building the document.
    @Test func aCommitNamesThePathsItWroteLocallyAndFromAPeer() throws {
        try replica.execute(Statements.insert(), arguments: ["doc": Self.drawing])
        var commits: [ReplicaCommit] = []
        let token = replica.onCommit { commits.append($0) }
        let key = DocumentKey(collection: "drawings", id: "drawing-1")
        try replica.write { tx in
            try tx.execute(Statements.unset([["strokes", "k1"]]), arguments: ["id": .string("drawing-1")])
            try tx.execute(
                Statements.insert(.updateLocalDiff),
                arguments: [
                    "doc": .object(["_id": .string("drawing-1"), "strokes": .object(["k3": .string("s3")])])
                ])
        }
        #expect(commits.count == 1)
        #expect(commits.last?.changedPaths == [key: [["strokes", "k1"], ["strokes", "k3"]]])
        #expect(commits.last?.isLocal == true)
        #expect(try shown(at: ["strokes", "k3"]) == .string("s3"))
        #expect(try shown(at: ["strokes", "k1"]) == nil)
        #expect(try shown(at: ["name"]) == .string("Notes"))

        // A peer's change to one entry names that entry.
        let peerDirectory = try TemporaryDirectory()
        let peer = try Replica(directory: peerDirectory.path, configuration: clock.configuration(peer: 0xCD))
        _ = try peer.apply(
            try replica.changes(collection: "drawings", documentID: nil, since: DocumentVersions()))
        let before = try replica.versions(collection: "drawings", documentID: nil)
        try peer.execute(
            Statements.set(["strokes", "k2"]),
            arguments: ["id": .string("drawing-1"), "value": .string("s2 by peer")])
        _ = try replica.apply(try peer.changes(collection: "drawings", documentID: nil, since: before))
        #expect(commits.count == 2)
        #expect(commits.last?.changedPaths == [key: [["strokes", "k2"]]])
        #expect(commits.last?.isLocal == false)

        // Deleting the document names its root: everything in it may have changed.
        try replica.execute(Statements.delete(), arguments: ["id": .string("drawing-1")])
        #expect(commits.last?.changedPaths[key]?.contains([]) == true)
        #expect(
            try replica.execute(Statements.select(), arguments: ["id": .string("drawing-1")]).documents
                .isEmpty)
        #expect(try shown(at: ["strokes", "k2"]) == nil)
        withExtendedLifetime(token) {}
    }

    /// A handler that asks for no paths is told which documents a commit changed, with no paths,
    /// until another handler asks for them; then both are told the paths.
    @Test func aHandlerThatAsksForNoPathsIsToldTheDocumentsOnly() throws {
        try replica.execute(Statements.insert(), arguments: ["doc": Self.drawing])
        let key = DocumentKey(collection: "drawings", id: "drawing-1")
        var signals: [ReplicaCommit] = []
        let signal = replica.onCommit(includingPaths: false) { signals.append($0) }
        try replica.execute(
            Statements.set(["strokes", "k2"]), arguments: ["id": .string("drawing-1"), "value": .string("a")])
        #expect(signals == [ReplicaCommit(changedPaths: [key: []], isLocal: true)])

        var withPaths: [ReplicaCommit] = []
        let paths = replica.onCommit { withPaths.append($0) }
        try replica.execute(
            Statements.set(["strokes", "k1"]), arguments: ["id": .string("drawing-1"), "value": .string("b")])
        #expect(withPaths == [ReplicaCommit(changedPaths: [key: [["strokes", "k1"]]], isLocal: true)])
        #expect(signals.last == withPaths.last)

        paths.cancel()
        try replica.execute(
            Statements.set(["strokes", "k1"]), arguments: ["id": .string("drawing-1"), "value": .string("c")])
        #expect(signals.count == 3)
        #expect(signals.last == ReplicaCommit(changedPaths: [key: []], isLocal: true))
        #expect(withPaths.count == 1)
        withExtendedLifetime(signal) {}
    }

    @Test func observerFiresOncePerChangingCommitAndStopsWhenCancelled() throws {
        var deliveries: [Int] = []
        let token = try replica.observe(Statements.select(), arguments: ["id": .string("drawing-1")]) {
            deliveries.append($0.documents.count)
        }
        try replica.execute(Statements.insert(), arguments: ["doc": Self.drawing])
        // Another document.
        try replica.execute(Statements.insert(), arguments: ["doc": .object(["_id": .string("other")])])
        try replica.execute(
            Statements.set(["name"]), arguments: ["id": .string("drawing-1"), "value": .string("Renamed")])
        #expect(deliveries == [0, 1, 1])
        token.cancel()
        try replica.execute(Statements.delete(), arguments: ["id": .string("drawing-1")])
        #expect(deliveries == [0, 1, 1])
    }

    @Test func releasedTokenStopsDeliveries() throws {
        var deliveries = 0
        do {
            _ = try replica.observe(Statements.select(id: false)) { _ in deliveries += 1 }
        }
        try replica.execute(Statements.insert(), arguments: ["doc": Self.drawing])
        #expect(deliveries == 1)
    }

    @Test func handlerMayWriteBackIntoTheStore() throws {
        var seen: [Int] = []
        let token = try replica.observe(Statements.select(id: false)) { [replica] result in
            seen.append(result.documents.count)
            if result.documents.count == 1 {
                _ = try? replica.execute(
                    Statements.insert(), arguments: ["doc": .object(["_id": .string("echo")])])
            }
        }
        try replica.execute(Statements.insert(), arguments: ["doc": Self.drawing])
        #expect(seen == [0, 1, 2])
        withExtendedLifetime(token) {}
    }

    @Test func missingArgumentIsNamed() throws {
        #expect(throws: ReplicaError.missingArgument(name: "doc")) {
            try replica.execute(Statements.insert())
        }
    }

    /// What drawing-1 shows at `path`, read through a projection of that one path (which reads
    /// only it, without building the rest of the document).
    func shown(at path: [String]) throws -> DocumentValue? {
        let select = DQLStatement.select(
            DQLSelect(
                projection: .fields([DQLPath(path)]), collection: "drawings",
                filter: DQLFilter(id: Statements.parameter("id"))))
        var value = try replica.execute(select, arguments: ["id": .string("drawing-1")]).documents.first.map(
            DocumentValue.object)
        for key in path { value = value?.objectValue?[key] }
        return value
    }
}

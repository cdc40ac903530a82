import ReplicaCore
import TestSupport
import Testing

@testable import ReplicaStore

/// A large delta stored while it merges (`ReceivedBlockWrite`): its received blocks go into the
/// log on another thread, what the merge changed besides them follows in the same transaction,
/// and whatever fails leaves the replica as SQLite holds it.
@Suite struct ReplicaConcurrentWriteTests {
    private let home: TemporaryDirectory
    private let clock = ManualClock()

    init() throws {
        home = try TemporaryDirectory(prefix: "concurrent-write")
    }

    /// Every delta this replica applies is stored while it merges, however small (unless not
    /// `concurrent`: then after the merge, however large).
    private func configuration(peer: UInt64, busyTimeoutMilliseconds: Int32 = 5_000, concurrent: Bool = true)
        -> ReplicaConfiguration
    {
        var configuration = clock.configuration(peer: peer)
        configuration.concurrentWriteMinimumBytes = concurrent ? 1 : .max
        configuration.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        return configuration
    }

    private func open(
        _ name: String, peer: UInt64, busyTimeoutMilliseconds: Int32 = 5_000, concurrent: Bool = true
    ) throws -> Replica {
        try Replica(
            directory: home.path + "/" + name,
            configuration: configuration(
                peer: peer, busyTimeoutMilliseconds: busyTimeoutMilliseconds, concurrent: concurrent))
    }

    private func draw(_ keys: [String], on replica: Replica, ink: String = "ink") throws {
        for key in keys {
            clock.now += 1
            try replica.execute(
                "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE",
                arguments: ["doc": .object(["_id": .string("d"), "strokes": .object([key: .string(ink)])])])
        }
    }

    /// What `to` lacks of `from`, through the wire format (so it carries its blocks).
    private func delta(from: Replica, to: Replica) throws -> ReplicaDelta {
        let since = try to.versions(collection: "drawings", documentID: nil)
        return try ReplicaDelta(
            decoding: from.changes(collection: "drawings", documentID: nil, since: since).encoded())
    }

    private func shown(_ replica: Replica) throws -> [String: DocumentValue] {
        try replica.execute("SELECT * FROM drawings WHERE _id = 'd'").documents.first?["strokes"]?.objectValue
            ?? [:]
    }

    private func logRows(_ replica: Replica) throws -> Int64 {
        try replica.database.connection.run("SELECT count(*) FROM batches").first?.first?.integer ?? -1
    }

    /// Reopens `replica`'s directory (the caller's writer must be released first) and expects
    /// every document to load as `documents` held it.
    private func expectReopens(_ name: String, peer: UInt64, as documents: [DocumentKey: DocumentState])
        throws
    {
        let reopened = try open(name, peer: peer)
        #expect(Set(reopened.state.allDocuments.keys) == Set(documents.keys))
        for (key, document) in documents {
            #expect(reopened.state.document(key)?.isIdentical(to: document) == true, "\(key.id)")
        }
    }

    @Test func aDeltaThatRemovesHeldEventsIsStoredAsItsBlockAndTheRemovalsInOneCommit() throws {
        let a = try open("a", peer: 1)
        var documents: [DocumentKey: DocumentState] = [:]
        do {
            let b = try open("b", peer: 2)
            try draw((0..<20).map { "a\($0)" }, on: a)
            _ = try b.apply(try delta(from: a, to: b))
            try draw((0..<6).map { "b\($0)" }, on: b)
            _ = try a.apply(try delta(from: b, to: a))
            // A overwrites three of B's strokes (removing B's events there) and draws more.
            try draw(["b0", "b1", "b2"], on: a, ink: "over")
            try draw((20..<60).map { "a\($0)" }, on: a)

            var observed: [DocumentObservation] = []
            let token = b.observeDocument("d", in: "drawings") { observed.append($0) }
            #expect(observed.count == 1)  // the document as it was
            let rows = try logRows(b)
            let incoming = try delta(from: a, to: b)
            #expect(b.state.newBlocks(of: incoming)?.count == 1)
            guard case .applied(let newEvents, let changed) = try b.apply(incoming) else {
                Issue.record("the delta was refused")
                return
            }
            token.cancel()
            #expect(newEvents == 43)
            #expect(changed == ["d"])
            // The block as it came, then B's three removed events in their new form.
            #expect(try logRows(b) == rows + 2)
            #expect(observed.count == 2)
            #expect(try shown(b) == shown(a))
            #expect(try shown(b)["b0"] == .string("over"))
            documents = b.state.allDocuments
        }
        try expectReopens("b", peer: 2, as: documents)
    }

    @Test func aDeltaOfNewEventsOnlyIsOneRowAndADeltaWithHeldEventsIsStoredAfterTheMerge() throws {
        let a = try open("a", peer: 1)
        let b = try open("b", peer: 2)
        try draw((0..<10).map { "a\($0)" }, on: a)
        var rows = try logRows(b)
        _ = try b.apply(try delta(from: a, to: b))
        #expect(try logRows(b) == rows + 1)

        // A delta since nothing holds the ten events B has: stored in one row after the merge.
        try draw((10..<15).map { "a\($0)" }, on: a)
        let everything = try ReplicaDelta(
            decoding: a.changes(collection: "drawings", documentID: nil, since: DocumentVersions()).encoded())
        #expect(b.state.newBlocks(of: everything) == nil)
        rows = try logRows(b)
        _ = try b.apply(everything)
        #expect(try logRows(b) == rows + 1)
        #expect(try shown(b) == shown(a))
    }

    /// Either way a delta is stored: a `BEGIN IMMEDIATE` that failed used to stay active, and the
    /// reload after it failed on that, leaving the merge in memory.
    @Test(arguments: [true, false])
    func aWriteThatCannotBeginLeavesTheReplicaAsCommittedAndTheDeltaCanComeAgain(concurrent: Bool) throws {
        let a = try open("a", peer: 1)
        let b = try open("b", peer: 2, busyTimeoutMilliseconds: 20, concurrent: concurrent)
        try draw(["a0"], on: a)
        _ = try b.apply(try delta(from: a, to: b))
        try draw((1..<30).map { "a\($0)" }, on: a)
        let before = b.state.allDocuments
        let incoming = try delta(from: a, to: b)

        // Another connection holds the write lock past B's busy timeout.
        let other = try SQLiteConnection(
            path: b.directory + "/" + ReplicaDatabase.fileName, readOnly: false, busyTimeoutMilliseconds: 20)
        try other.run("BEGIN IMMEDIATE")
        #expect(throws: SQLiteError.self) { try b.apply(incoming) }
        #expect(b.state.allDocuments == before)
        try other.run("ROLLBACK")

        guard case .applied(29, _) = try b.apply(incoming) else {
            Issue.record("the delta was not applied again")
            return
        }
        #expect(try shown(b) == shown(a))
    }

    @Test func aWriteThatFailsPartWayIsRolledBackWhole() throws {
        let a = try open("a", peer: 1)
        var documents: [DocumentKey: DocumentState] = [:]
        do {
            let b = try open("b", peer: 2)
            try draw(["a0"], on: a)
            _ = try b.apply(try delta(from: a, to: b))
            // Long values, so the block needs more pages than the file may grow by.
            try draw((1..<200).map { "a\($0)" }, on: a, ink: String(repeating: "ink ", count: 100))
            let incoming = try delta(from: a, to: b)
            let before = b.state.allDocuments
            let rows = try logRows(b)
            let pages = try b.database.connection.run("PRAGMA page_count").first?.first?.integer ?? 0
            try b.database.connection.run("PRAGMA max_page_count = \(pages + 2)")
            #expect(throws: (any Error).self) { try b.apply(incoming) }
            #expect(b.state.allDocuments == before)
            #expect(try logRows(b) == rows)

            try b.database.connection.run("PRAGMA max_page_count = 1073741823")
            guard case .applied(199, _) = try b.apply(incoming) else {
                Issue.record("the delta was not applied again")
                return
            }
            #expect(try shown(b) == shown(a))
            documents = b.state.allDocuments
        }
        try expectReopens("b", peer: 2, as: documents)
    }
}

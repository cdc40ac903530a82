import EventRuntime
import RelayStore
import ReplicaCore
import ReplicaCoreTestSupport
import TestSupport
import Testing

/// Compaction of the PostgreSQL log (`RelayEventStore+Compaction`): the documents a fresh relay
/// derives stay the same whatever order rows arrived in and wherever compactions ran, relays
/// compacting and inserting at once lose nothing, and the rows of a drawing erased and redrawn
/// shrink.
extension PostgresTestLoop {
    func recordPeerVersions(_ store: RelayEventStore, _ versions: [RelayEventStore.PeerVersion]) throws {
        var outcome: Result<Int, PostgresError>?
        store.recordPeerVersions(versions) { outcome = $0 }
        wait(for: "the peer versions") { outcome != nil }
        _ = try #require(outcome).get()
    }

    func compact(_ store: RelayEventStore, _ id: String, countedSince cutoff: Int64 = 0) throws
        -> RelayEventStore.CompactionOutcome?
    {
        var outcome: Result<RelayEventStore.CompactionOutcome?, PostgresError>?
        store.compact(collection: "drawings", documentID: id, countedSince: cutoff, minimumDropped: 1) {
            outcome = $0
        }
        wait(for: "the compaction of \(id)") { outcome != nil }
        return try #require(outcome).get()
    }

    func readDocument(_ store: RelayEventStore, _ id: String) throws -> StoredDocument {
        var outcome: Result<StoredDocument, PostgresError>?
        store.readDocument(collection: "drawings", documentID: id, countedSince: 0) { outcome = $0 }
        wait(for: "the read of \(id)") { outcome != nil }
        return try #require(outcome).get()
    }

    /// The rows (events and whole states) of one database id, and the bytes of their records.
    func rowFigures(_ databaseID: String, document: String? = nil) throws -> (rows: Int64, bytes: Int64) {
        let check = try connected()
        defer { check.close() }
        let figures = try run(
            check,
            """
            SELECT count(*), COALESCE(sum(octet_length(record)), 0)::int8 FROM (
                SELECT record FROM drawtogether_events WHERE database_id = $1 AND ($2::text IS NULL OR document = $2)
                UNION ALL
                SELECT record FROM drawtogether_full_states WHERE database_id = $1 AND ($2::text IS NULL OR document = $2)
            ) r
            """, [.text(databaseID), document.map { .text($0) } ?? .null])
        return (figures.int64(0, 0) ?? -1, figures.int64(0, 1) ?? -1)
    }
}

@Suite struct RelayCompactionTests {
    /// What a fresh relay holds after reading everything: the join of the rows.
    private func derived(_ test: PostgresTestLoop, _ store: RelayEventStore) throws -> ReplicaState {
        var state = ReplicaState(peerID: PeerID(0x98))
        let (_, gaps) = try test.rows(store).enter(into: &state)
        #expect(gaps.isEmpty, "the stored events have a gap")
        return state
    }

    /// What a user sees of a document, and every event still live in it.
    private struct Shown: Equatable {
        var fields: [String: DocumentValue]?
        var live: [DocumentEvent]
    }

    private func shown(_ state: ReplicaState) -> [String: Shown] {
        var result: [String: Shown] = [:]
        for id in ["d0", "d1", "d2"] {
            let document = state.document(DocumentKey(collection: "drawings", id: id))
            let live = document?.events.values.filter { !$0.isRemoved }.sorted { $0.dot < $1.dot } ?? []
            result[id] = Shown(fields: document?.fields, live: live)
        }
        return result
    }

    /// The versions every writer of `writes` held after the first `count` deltas: each saw each
    /// delta as it was written.
    private func heldVersions(_ writes: RecordedWrites, after count: Int, at time: Int64) throws
        -> [RelayEventStore.PeerVersion]
    {
        var state = ReplicaState(peerID: PeerID(0x95))
        for delta in writes.deltas.prefix(count) { _ = try state.apply(delta, wall: 0) }
        let versions = state.versions(collection: "drawings", documentID: nil)
        return [1, 0x7000_0000_0000_0002, 0xF000_0000_0000_0003].flatMap { peer in
            versions.vectors.map { id, vector in
                RelayEventStore.PeerVersion(
                    document: DocumentKey(collection: "drawings", id: id), peer: PeerID(peer), vector: vector,
                    lastSeen: time)
            }
        }
    }

    @Test(arguments: [UInt64(3), 17, 41])
    func theLawHoldsWithCompactionAtRandomPoints(seed: UInt64) throws {
        let test = try PostgresTestLoop()
        let writes = try RecordedWrites(seed: seed, operations: 160)
        let plain = try test.openStore(databaseID: "plain")
        let first = try test.openStore(databaseID: "law-a")
        let second = try test.openStore(databaseID: "law-b")
        var rng = SplitMix64(seed: seed ^ 0xC0)
        var dropped = 0
        var compactions = 0

        /// At random, the writers say they hold some prefix of what is stored, and a random
        /// document is compacted.
        func maybeCompact(_ store: RelayEventStore, stored count: Int) throws {
            guard rng.next() % 4 == 0 else { return }
            let acknowledged = rng.next() % 3 == 0 ? Int(rng.next() % UInt64(count + 1)) : count
            try test.recordPeerVersions(store, try heldVersions(writes, after: acknowledged, at: 1))
            if let outcome = try test.compact(store, ["d0", "d1", "d2"][Int(rng.next() % 3)]) {
                dropped += outcome.droppedEvents
                compactions += 1
            }
        }

        // The plain store gets the live deltas as they were sent; nothing is compacted there.
        for delta in writes.deltas { _ = try test.commit(plain, [delta]) }
        // One store gets the same, compacting at random points, then all of it again (late
        // copies of events compaction dropped).
        for (index, delta) in writes.deltas.enumerated() {
            _ = try test.commit(first, [delta])
            try maybeCompact(first, stored: index + 1)
        }
        _ = try test.commit(first, writes.deltas)
        // The other gets the final state first, then the live deltas shuffled, in batches,
        // compacting between them (everything is stored from the start, so every writer holds it).
        _ = try test.commit(second, writes.finalDeltas.reversed())
        var shuffled = writes.deltas
        shuffled.shuffle(using: &rng)
        for start in stride(from: 0, to: shuffled.count, by: 7) {
            _ = try test.commit(second, Array(shuffled[start..<min(start + 7, shuffled.count)]))
            try maybeCompact(second, stored: writes.deltas.count)
        }
        // And at the end every document of both, once more.
        for store in [first, second] {
            try test.recordPeerVersions(store, try heldVersions(writes, after: writes.deltas.count, at: 2))
            for id in ["d0", "d1", "d2"] {
                if let outcome = try test.compact(store, id) { dropped += outcome.droppedEvents }
            }
        }

        let expected = shown(writes.final)
        #expect(try shown(derived(test, plain)) == expected)
        #expect(try shown(derived(test, first)) == expected)
        #expect(try shown(derived(test, second)) == expected)
        #expect(compactions > 0)
        #expect(dropped > 0)
        // Compacted, the log is smaller than the plain one.
        #expect(try test.rowFigures("law-a").bytes < test.rowFigures("plain").bytes)
        #expect(try test.rowFigures("law-b").bytes < test.rowFigures("plain").bytes)
    }

    @Test func twoRelaysCompactingWhileAThirdInsertsLoseNothing() throws {
        let test = try PostgresTestLoop()
        let writes = try RecordedWrites(seed: 53, operations: 200)
        let one = try test.openStore(databaseID: "race")
        let two = try test.openStore(databaseID: "race")
        let writer = try test.openStore(databaseID: "race")
        let split = writes.deltas.count * 2 / 3
        for delta in writes.deltas.prefix(split) { _ = try test.commit(writer, [delta]) }
        try test.recordPeerVersions(writer, try heldVersions(writes, after: split, at: 1))

        // Both relays read every document, then the writer stores the rest, then both store
        // their compactions at once: each deletes only rows it read, and its own whole state
        // stays beside the other's.
        var plans: [RelayCompaction] = []
        for store in [one, two] {
            for id in ["d0", "d1", "d2"] {
                if let plan = try test.readDocument(store, id).compaction(minimumDropped: 1) {
                    plans.append(plan)
                }
            }
        }
        #expect(plans.count >= 4)
        var inserted: Int?
        writer.commit(writes.deltas.dropFirst(split).map { .delta($0) }) { inserted = try? $0.get() }
        var stored: [Result<RelayEventStore.CompactionOutcome, PostgresError>] = []
        for (index, plan) in plans.enumerated() {
            (index % 2 == 0 ? one : two).store(plan) { stored.append($0) }
        }
        // A relay reading while they run, after the insert (its statements queue behind it):
        // each read, events then whole states, has everything, whichever compactions committed
        // between its two statements.
        var reads: [Result<StoredRows, PostgresError>] = []
        for _ in 0..<6 {
            writer.changes(collection: "drawings", documentID: nil, since: DocumentVersions()) {
                reads.append($0)
            }
        }
        test.wait(for: "the compactions, the insert and the reads") {
            stored.count == plans.count && inserted != nil && reads.count == 6
        }
        for outcome in stored { _ = try outcome.get() }
        let expected = shown(writes.final)
        for read in reads {
            var during = ReplicaState(peerID: PeerID(0x94))
            _ = try read.get().enter(into: &during)
            #expect(shown(during) == expected)
        }
        #expect(try shown(derived(test, writer)) == expected)

        // The writers now hold everything: compacting again merges the whole states into one
        // per document, and still shows the same.
        try test.recordPeerVersions(writer, try heldVersions(writes, after: writes.deltas.count, at: 2))
        for id in ["d0", "d1", "d2"] { _ = try test.compact(one, id) }
        #expect(try shown(derived(test, writer)) == expected)
        let check = try test.connected()
        let states = try test.run(
            check,
            "SELECT count(*), count(DISTINCT document) FROM drawtogether_full_states WHERE database_id = 'race'"
        )
        #expect(states.int64(0, 0) == states.int64(0, 1))
    }

    @Test func aDrawingErasedAndRedrawnShrinksWhenCompacted() throws {
        let test = try PostgresTestLoop()
        let store = try test.openStore(databaseID: "redrawn")
        var client = ReplicaState(peerID: PeerID(0x31))
        let key = DocumentKey(collection: "drawings", id: "d0")
        let ink = String(repeating: "AbCd", count: 40)
        func commitSince(_ before: DocumentVersions) throws {
            _ = try test.commit(
                store, [client.changes(collection: "drawings", documentID: nil, since: before)])
        }
        // 200 strokes drawn and erased nine times over, then drawn once more.
        for round in 0..<10 {
            var before = client.versions(collection: "drawings", documentID: nil)
            let strokes = Dictionary(
                uniqueKeysWithValues: (0..<200).map { ("r\(round)-s\($0)", DocumentValue.string(ink)) })
            _ = try client.execute(
                Statements.insert(.updateLocalDiff),
                arguments: ["doc": .object(["_id": .string("d0"), "strokes": .object(strokes)])],
                wall: Int64(round * 10 + 1))
            try commitSince(before)
            guard round < 9 else { break }
            before = client.versions(collection: "drawings", documentID: nil)
            _ = try client.execute(
                Statements.unset(strokes.keys.sorted().map { ["strokes", $0] }),
                arguments: ["id": .string("d0")],
                wall: Int64(round * 10 + 2))
            try commitSince(before)
        }
        let grown = try test.rowFigures("redrawn")
        try test.recordPeerVersions(
            store,
            [
                .init(
                    document: key, peer: client.peerID,
                    vector: try #require(client.document(key)).versionVector,
                    lastSeen: 1)
            ])
        let outcome = try #require(try test.compact(store, "d0"))
        let compacted = try test.rowFigures("redrawn")
        #expect(outcome.deletedEvents == Int(grown.rows))
        #expect(compacted.rows == 1)
        #expect(compacted.bytes * 5 < grown.bytes, "\(compacted) against \(grown)")
        // No bigger than twice the rows of a store that only ever held the final drawing.
        let fresh = try test.openStore(databaseID: "fresh")
        let final = try #require(client.document(key))
        _ = try test.commit(
            fresh,
            [
                ReplicaDelta(
                    collection: "drawings",
                    documents: [
                        .init(
                            documentID: "d0",
                            events: final.events.values.filter { !$0.isRemoved }.sorted { $0.dot < $1.dot })
                    ])
            ])
        #expect(compacted.bytes <= 2 * (try test.rowFigures("fresh").bytes))
        let fields = try derived(test, store).document(key)?.fields
        #expect(fields == client.document(key)?.fields)
        #expect(fields?["strokes"]?.objectValue?.count == 200)
    }
}

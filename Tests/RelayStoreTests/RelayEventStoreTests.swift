import EventRuntime
import RelayStore
import ReplicaCore
import ReplicaCoreTestSupport
import ReplicaSync
import TestSupport
import Testing

@Suite struct RelayEventStoreTests {
    /// Applies what a fresh relay reads from the store to an empty replica.
    private func derived(_ test: PostgresTestLoop, _ store: RelayEventStore) throws -> ReplicaState {
        var state = ReplicaState(peerID: PeerID(0x99))
        let delta = try test.changes(store)
        guard case .applied = try state.apply(delta, wall: 0) else {
            Issue.record("the stored events have a gap")
            return state
        }
        return state
    }

    @Test(arguments: [UInt64(3), 17])
    func theSameEventsInAnyOrderAndTwiceGiveTheSameDocuments(seed: UInt64) throws {
        let test = try PostgresTestLoop()
        let writes = try RecordedWrites(seed: seed, operations: 120)
        let first = try test.openStore(databaseID: "order-a")
        let second = try test.openStore(databaseID: "order-b")

        // One relay gets the live deltas as they were sent, one transaction each, then all again.
        var inserted = 0
        for delta in writes.deltas { inserted += try test.commit(first, [delta]) }
        #expect(inserted > 0)
        #expect(try test.commit(first, writes.deltas) == 0)

        // The other gets the final state first, then the live deltas shuffled, in batches.
        var rng = SplitMix64(seed: seed)
        #expect(try test.commit(second, writes.finalDeltas.reversed()) == inserted)
        var shuffled = writes.deltas
        shuffled.shuffle(using: &rng)
        for start in stride(from: 0, to: shuffled.count, by: 7) {
            #expect(try test.commit(second, Array(shuffled[start..<min(start + 7, shuffled.count)])) == 0)
        }

        let fromFirst = try derived(test, first)
        let fromSecond = try derived(test, second)
        #expect(fromFirst.allDocuments == writes.final.allDocuments)
        #expect(fromSecond.allDocuments == writes.final.allDocuments)
        for id in ["d0", "d1", "d2"] {
            let key = DocumentKey(collection: "drawings", id: id)
            #expect(fromFirst.document(key)?.fields == writes.final.document(key)?.fields)
        }
    }

    /// Whole states of compacted replicas: one that held half the writes, and one that held
    /// them all, compacted and wrote more; and a delta another replica wrote meanwhile, which
    /// neither state holds.
    private struct CompactedWrites {
        var writes: RecordedWrites
        var early: ReplicaFullState
        var late: ReplicaFullState
        var meanwhile: ReplicaDelta
        /// What the SQLite replica's core makes of all of it: every delta applied, then both
        /// whole states adopted.
        var expected: ReplicaState

        init(seed: UInt64) throws {
            writes = try RecordedWrites(seed: seed, operations: 120)
            var rng = SplitMix64(seed: seed ^ 0x5EED)
            let workload = RandomWorkload(scope: .document)
            func compacted(_ state: inout ReplicaState) {
                for id in state.documentIDs(in: "drawings") {
                    let key = DocumentKey(collection: "drawings", id: id)
                    state.compact(key, stable: state.document(key)?.versionVector ?? VersionVector())
                }
            }
            var half = ReplicaState(peerID: PeerID(0x51))
            for delta in writes.deltas.prefix(writes.deltas.count / 2) { _ = try half.apply(delta, wall: 0) }
            compacted(&half)
            early = try #require(
                half.fullState(collection: "drawings", documentID: nil, since: DocumentVersions()))

            func copy(of state: ReplicaState, as peer: UInt64) throws -> ReplicaState {
                var copy = ReplicaState(peerID: PeerID(peer))
                _ = try copy.apply(
                    state.changes(collection: "drawings", documentID: nil, since: DocumentVersions()), wall: 0
                )
                return copy
            }
            var other = try copy(of: writes.final, as: 0x07E)
            let before = other.versions(collection: "drawings", documentID: nil)
            for step in 0..<20 { try workload.step(&other, wall: Int64(20_000 + step), &rng) }
            meanwhile = other.changes(collection: "drawings", documentID: nil, since: before)

            var last = try copy(of: writes.final, as: 0x1A7E)
            compacted(&last)
            for step in 0..<20 { try workload.step(&last, wall: Int64(10_000 + step), &rng) }
            late = try #require(
                last.fullState(collection: "drawings", documentID: nil, since: DocumentVersions()))

            expected = ReplicaState(peerID: PeerID(0x99))
            for delta in writes.deltas + [meanwhile] {
                guard case .applied = try expected.apply(delta, wall: 0) else {
                    throw ReplicaError.malformedDelta(reason: "a recorded delta has a gap")
                }
            }
            for state in [early, late] {
                for document in state.delta.documents {
                    _ = try expected.adopt(
                        fullState: document.events, compacted: state.compacted[document.documentID],
                        into: DocumentKey(collection: "drawings", id: document.documentID), wall: 0)
                }
            }
        }

        var deltas: [RelayWrite] { (writes.deltas + [meanwhile]).map { .delta($0) } }
    }

    /// What a fresh relay holds after reading everything: the join of the rows.
    private func joined(_ test: PostgresTestLoop, _ store: RelayEventStore) throws -> ReplicaState {
        var state = ReplicaState(peerID: PeerID(0x98))
        let rows = try test.rows(store)
        let (_, gaps) = rows.enter(into: &state)
        #expect(gaps.isEmpty, "the stored events have a gap")
        // A second read, with what was read, finds nothing new.
        var known: [String: Set<[UInt8]>] = [:]
        for fullState in rows.fullStates { known[fullState.documentID, default: []].insert(fullState.digest) }
        let again = try test.rows(
            store, since: state.versions(collection: "drawings", documentID: nil), known: known)
        #expect(again.fullStates.isEmpty)
        // Entered the other way round (events first, then each whole state, last first), as a
        // relay that read them at different times: the same documents.
        var late = ReplicaState(peerID: PeerID(0x97))
        _ = StoredRows(delta: rows.delta).enter(into: &late)
        for fullState in rows.fullStates.reversed() {
            _ = StoredRows(
                delta: ReplicaDelta(collection: "drawings", documents: []), fullStates: [fullState]
            )
            .enter(into: &late)
        }
        #expect(late.allDocuments == state.allDocuments)
        for (key, document) in state.allDocuments {
            #expect(late.document(key)?.compacted == document.compacted)
        }
        return state
    }

    @Test(arguments: [UInt64(3), 17])
    func theSameEventsAndWholeStatesInAnyOrderAndTwiceGiveTheSameDocuments(seed: UInt64) throws {
        let test = try PostgresTestLoop()
        let compacted = try CompactedWrites(seed: seed)
        let first = try test.openStore(databaseID: "whole-a")
        let second = try test.openStore(databaseID: "whole-b")

        // One relay gets the deltas as they were sent, then the whole states, then all again.
        var inserted = 0
        for write in compacted.deltas { inserted += try test.commit(first, writes: [write]) }
        inserted += try test.commit(first, writes: [.fullState(compacted.early)])
        inserted += try test.commit(first, writes: [.fullState(compacted.late)])
        let all = compacted.deltas + [.fullState(compacted.early), .fullState(compacted.late)]
        #expect(try test.commit(first, writes: all) == 0)

        // The other gets the late whole state first, then everything shuffled, in batches, twice.
        var rng = SplitMix64(seed: seed)
        var total = try test.commit(second, writes: [.fullState(compacted.late)])
        for _ in 0..<2 {
            var shuffled = all
            shuffled.shuffle(using: &rng)
            for start in stride(from: 0, to: shuffled.count, by: 7) {
                total += try test.commit(
                    second, writes: Array(shuffled[start..<min(start + 7, shuffled.count)]))
            }
        }
        #expect(total == inserted)

        let fromFirst = try joined(test, first)
        let fromSecond = try joined(test, second)
        let expected = compacted.expected
        #expect(fromFirst.allDocuments == expected.allDocuments)
        #expect(fromSecond.allDocuments == expected.allDocuments)
        var dropped = 0
        let stored = try test.changes(first)
        for id in expected.documentIDs(in: "drawings") {
            let key = DocumentKey(collection: "drawings", id: id)
            #expect(fromFirst.document(key)?.compacted == expected.document(key)?.compacted)
            #expect(fromSecond.document(key)?.compacted == expected.document(key)?.compacted)
            #expect(fromFirst.document(key)?.fields == expected.document(key)?.fields)
            #expect(fromSecond.document(key)?.fields == expected.document(key)?.fields)
            let rows = stored.documents.first { $0.documentID == id }?.events.count ?? 0
            dropped += rows - (expected.document(key)?.eventCount ?? 0)
        }
        // The log keeps events the whole states dropped: the join, not the rows alone, is the
        // document.
        #expect(dropped > 0)
    }

    /// A listing reads the join too: a drawing taken out of the trash, whose trash time and
    /// UNSET a client compacted away, is listed as not trashed although the log keeps the
    /// trash time's row.
    @Test func aListingFollowsTheWholeStatesThatDroppedItsRows() throws {
        let test = try PostgresTestLoop()
        let store = try test.openStore(databaseID: "listed")
        var client = ReplicaState(peerID: PeerID(0x33))
        _ = try client.execute(
            Statements.insert(.updateLocalDiff),
            arguments: [
                "doc": .object(["_id": .string("d0"), "name": .string("one"), "trashed": .number(5)])
            ],
            wall: 1_000)
        let trashed = client.changes(collection: "drawings", documentID: nil, since: DocumentVersions())
        _ = try test.commit(store, [trashed])
        let before = client.versions(collection: "drawings", documentID: nil)
        _ = try client.execute(
            Statements.unset([["trashed"]]), arguments: ["id": .string("d0")], wall: 2_000)
        let key = DocumentKey(collection: "drawings", id: "d0")
        #expect(!client.compact(key, stable: try #require(client.document(key)).versionVector).isEmpty)
        let whole = try #require(client.fullState(collection: "drawings", documentID: nil, since: before))
        _ = try test.commit(store, writes: [.fullState(whole)])

        var outcome: Result<StoredRows, PostgresError>?
        store.listingEvents(collection: "drawings", documentID: nil) { outcome = $0 }
        test.wait(for: "the listing rows") { outcome != nil }
        let rows = try #require(outcome).get()
        let events = try #require(rows.delta.documents.first).events
        #expect(SyncListingEntry(document: DocumentState(events: events))?.trashedAt == 5)
        let entry = try #require(rows.joinedDocuments["d0"].flatMap { SyncListingEntry(document: $0) })
        #expect(entry.name == "one")
        #expect(entry.trashedAt == nil)
    }

    @Test func deltasArrivingInFormatOneAndFormatTwoGiveTheSameDocuments() throws {
        // Clients of the builds before event blocks send format 1, those before packed base64
        // format 2; the rows are the same whichever came.
        let test = try PostgresTestLoop()
        let writes = try RecordedWrites(seed: 11, operations: 80)
        let store = try test.openStore(databaseID: "mixed-formats")
        for (index, delta) in writes.deltas.enumerated() {
            let bytes = [delta.encodedFormatOne(), delta.encodedFormatTwo(), delta.encoded()][index % 3]
            _ = try test.commit(store, [try ReplicaDelta(decoding: bytes)])
        }
        #expect(try derived(test, store).allDocuments == writes.final.allDocuments)
        #expect(try test.changes(store).encoded().starts(with: [0x52, 0x44, 0x03]))
    }

    @Test func aReadReturnsOnlyWhatTheVersionVectorLacks() throws {
        let test = try PostgresTestLoop()
        let writes = try RecordedWrites(seed: 5, operations: 80)
        let store = try test.openStore(databaseID: "by-vector")
        _ = try test.commit(store, writes.deltas)

        // A relay that holds the first half asks for the rest.
        var partial = ReplicaState(peerID: PeerID(0x98))
        for delta in writes.deltas.prefix(writes.deltas.count / 2) { _ = try partial.apply(delta, wall: 0) }
        let have = partial.versions(collection: "drawings", documentID: nil)
        let missing = try test.changes(store, since: have)
        let covered = missing.documents.flatMap { document in
            document.events.filter { have[document.documentID].contains($0.dot) }
        }
        #expect(covered.isEmpty)
        #expect(!missing.isEmpty)
        guard case .applied = try partial.apply(missing, wall: 0) else {
            Issue.record("the read left a gap")
            return
        }
        #expect(partial.allDocuments == writes.final.allDocuments)

        // Nothing is read for a relay that has everything; one document is read on its own.
        let all = writes.final.versions(collection: "drawings", documentID: nil)
        #expect(try test.changes(store, since: all).isEmpty)
        let one = try test.changes(store, documentID: "d1")
        #expect(one.documents.map(\.documentID) == ["d1"])
        var d1 = ReplicaState(peerID: PeerID(0x97))
        _ = try d1.apply(one, wall: 0)
        let key = DocumentKey(collection: "drawings", id: "d1")
        #expect(d1.document(key) == writes.final.document(key))
    }

    @Test func aReadOfSeveralDocumentsReturnsWhatAReadOfEachReturns() throws {
        let test = try PostgresTestLoop()
        let writes = try RecordedWrites(seed: 29, operations: 120)
        let store = try test.openStore(databaseID: "batched")
        _ = try test.commit(store, writes.deltas)

        // A relay holding a third of what was written, then every document's rest asked for at once.
        var partial = ReplicaState(peerID: PeerID(0x96))
        for delta in writes.deltas.prefix(writes.deltas.count / 3) { _ = try partial.apply(delta, wall: 0) }
        let have = partial.versions(collection: "drawings", documentID: nil)
        let ids = ["d0", "d1", "d2"]
        var outcome: Result<StoredRows, PostgresError>?
        store.changes(collection: "drawings", documentIDs: ids, since: have) { outcome = $0 }
        test.wait(for: "the read of three documents") { outcome != nil }
        let together = try #require(outcome).get().delta
        var alone: [ReplicaDelta.DocumentDelta] = []
        for id in ids {
            alone += try test.changes(store, documentID: id, since: have).documents
        }
        #expect(!together.isEmpty)
        #expect(together.documents == alone)
        // Two of them are two documents, and the whole collection is all three.
        var two: Result<StoredRows, PostgresError>?
        store.changes(collection: "drawings", documentIDs: ["d2", "d0"], since: have) { two = $0 }
        test.wait(for: "the read of two documents") { two != nil }
        #expect(try #require(two).get().delta.documents == alone.filter { $0.documentID != "d1" })
        #expect(try test.changes(store, since: have).documents == alone)
        guard case .applied = try partial.apply(together, wall: 0) else {
            Issue.record("the read of several documents left a gap")
            return
        }
        #expect(partial.allDocuments == writes.final.allDocuments)
    }

    @Test func groupCommitAcknowledgesATurnsDeltasTogetherAfterCommit() throws {
        let test = try PostgresTestLoop()
        let store = try test.openStore(databaseID: "grouped")
        let blocker = try test.connected()
        let writes = try RecordedWrites(seed: 23, operations: 60)
        let group = PostgresGroupCommit(store: store, loop: test.loop)

        // Another transaction holds the table, so the batch's COMMIT cannot happen until it ends.
        _ = try test.run(blocker, "BEGIN")
        _ = try test.run(blocker, "LOCK TABLE drawtogether_events IN EXCLUSIVE MODE")
        var acknowledged: [Int] = []
        for (index, delta) in writes.deltas.prefix(5).enumerated() {
            group.submit(.delta(delta)) { outcome in
                if case .success = outcome { acknowledged.append(index) }
            }
        }
        #expect(acknowledged.isEmpty)
        _ = test.loop.run(until: { !acknowledged.isEmpty }, timeout: .milliseconds(300))
        #expect(acknowledged.isEmpty, "acknowledged before the transaction could commit")
        // These arrive while the first batch is on the wire: they make the next transaction.
        for (index, delta) in writes.deltas.dropFirst(5).prefix(3).enumerated() {
            group.submit(.delta(delta)) { outcome in
                if case .success = outcome { acknowledged.append(5 + index) }
            }
        }
        _ = try test.run(blocker, "COMMIT")
        test.wait(for: "the acknowledgements") { acknowledged.count == 8 }
        #expect(acknowledged == Array(0..<8))
        #expect(group.transactions == 2)
        #expect(group.committedDeltas == 8)

        // Everything acknowledged is there for a relay that starts now.
        let fresh = try test.openStore(databaseID: "grouped")
        let stored = try test.changes(fresh)
        #expect(stored.eventCount == writes.deltas.prefix(8).reduce(0) { $0 + $1.eventCount })
    }

    @Test func migrationsRunOnceAndANewerSchemaIsRefused() throws {
        let test = try PostgresTestLoop()
        // Three relays start at once on an empty database: one migrates, the others wait for it.
        var opened: [Result<RelayEventStore, PostgresError>] = []
        for _ in 0..<3 {
            RelayEventStore.open(databaseID: "m", connection: try test.connected()) { opened.append($0) }
        }
        test.wait(for: "three stores") { opened.count == 3 }
        for outcome in opened { #expect((try? outcome.get()) != nil, "\(outcome)") }
        let check = try test.connected()
        let version = try test.run(check, "SELECT value FROM drawtogether_meta WHERE key = 'schema_version'")
        #expect(version.int64(0, 0) == 5)

        // A database of version 2 (no whole states or client versions tables) with events in it
        // migrates and keeps them.
        let older = try test.openStore(databaseID: "m")
        let writes = try RecordedWrites(seed: 29, operations: 30)
        _ = try test.commit(older, writes.deltas)
        _ = try test.run(check, "DROP TABLE drawtogether_full_states")
        _ = try test.run(check, "DROP TABLE drawtogether_peer_versions")
        _ = try test.run(check, "UPDATE drawtogether_meta SET value = 2 WHERE key = 'schema_version'")
        let migrated = try test.openStore(databaseID: "m")
        #expect(try test.run(check, "SELECT value FROM drawtogether_meta").int64(0, 0) == 5)
        #expect(try test.rows(migrated).delta.eventCount == writes.deltas.reduce(0) { $0 + $1.eventCount })
        #expect(try test.rows(migrated).fullStates.isEmpty)

        _ = try test.run(check, "UPDATE drawtogether_meta SET value = 99 WHERE key = 'schema_version'")
        var refused: Result<RelayEventStore, PostgresError>?
        RelayEventStore.open(databaseID: "m", connection: try test.connected()) { refused = $0 }
        test.wait(for: "the refusal") { refused != nil }
        guard case .failure(let error) = refused else {
            Issue.record("a schema newer than this program was opened")
            return
        }
        #expect(error.message.contains("version 99"))
        #expect(error.message.contains("upgrade drawtogether"))
    }
}

import EventRuntime
import RelayStore
import ReplicaCore
import ReplicaCoreTestSupport
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

    @Test func aCommitNotifiesOtherRelaysOfEachDocumentWithWhatIsStored() throws {
        let test = try PostgresTestLoop()
        let writer = try test.openStore(databaseID: "notified")
        let listener = try test.openStore(databaseID: "notified")
        let stranger = try test.openStore(databaseID: "someone-else")
        var notices: [CommitNotice] = []
        var strangerNotices: [CommitNotice] = []
        var listening: PostgresError??
        listener.listen(onNotice: { notices.append($0) }) { listening = .some($0) }
        stranger.listen(onNotice: { strangerNotices.append($0) }) { _ in }
        test.wait(for: "LISTEN") { listening != nil }
        #expect(listening == .some(nil))

        let writes = try RecordedWrites(seed: 11, operations: 40)
        let documents = writes.finalDeltas
        _ = try test.commit(writer, documents)
        let expected = documents.compactMap { delta -> CommitNotice? in
            guard let document = delta.documents.first else { return nil }
            return CommitNotice(
                collection: "drawings", documentID: document.documentID,
                stored: writes.final.versions(collection: "drawings", documentID: document.documentID)[
                    document.documentID])
        }
        test.wait(for: "the notices") { notices.count >= expected.count }
        #expect(notices == expected)

        // Rows already stored notify nobody; only the document that got a new row is named.
        _ = try test.commit(writer, documents)
        var node = writes.final
        var rng = SplitMix64(seed: 1)
        try RandomWorkload(scope: .document).step(&node, wall: 10_000, &rng)
        let before = writes.final.versions(collection: "drawings", documentID: nil)
        let next = node.changes(collection: "drawings", documentID: nil, since: before)
        _ = try test.commit(writer, [next])
        test.wait(for: "the next notice") { notices.count > expected.count }
        #expect(notices.dropFirst(expected.count).map(\.documentID) == next.documents.map(\.documentID))
        // Another database id listens on a channel of its own.
        #expect(stranger.channel != writer.channel)
        #expect(strangerNotices.isEmpty)
    }

    @Test func aNoticeTooLargeForNotifyLeavesTheVectorOut() throws {
        var counters: [PeerID: UInt64] = [:]
        for peer in 1...600 { counters[PeerID(UInt64(peer) << 40)] = UInt64(peer) }
        let notice = CommitNotice(collection: "drawings", documentID: "d0", stored: VersionVector(counters))
        let payload = try #require(notice.payload as String?)
        #expect(payload.utf8.count < 8_000)
        let read = CommitNotice(payload: payload)
        #expect(read == CommitNotice(collection: "drawings", documentID: "d0", stored: nil))
        #expect(read?.isNew(comparedWith: VersionVector(counters)) == true)

        let small = CommitNotice(
            collection: "drawings", documentID: "a b\u{1}✏️", stored: VersionVector([PeerID(7): 3]))
        #expect(small.payload.flatMap(CommitNotice.init(payload:)) == small)
        #expect(small.isNew(comparedWith: VersionVector([PeerID(7): 2])))
        #expect(!small.isNew(comparedWith: VersionVector([PeerID(7): 3])))
        #expect(CommitNotice(payload: "dt1 zz 00") == nil)
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
            group.submit(delta) { outcome in
                if case .success = outcome { acknowledged.append(index) }
            }
        }
        #expect(acknowledged.isEmpty)
        _ = test.loop.run(until: { !acknowledged.isEmpty }, timeout: .milliseconds(300))
        #expect(acknowledged.isEmpty, "acknowledged before the transaction could commit")
        // These arrive while the first batch is on the wire: they make the next transaction.
        for (index, delta) in writes.deltas.dropFirst(5).prefix(3).enumerated() {
            group.submit(delta) { outcome in
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
        #expect(version.int64(0, 0) == 2)

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

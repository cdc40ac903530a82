import EventRuntime
import RelayStore
import ReplicaCore
import ReplicaCoreTestSupport
import ReplicaSync
import TestSupport
import Testing

/// The commit notices on real PostgreSQL: what each says, that it arrives after its rows are
/// durable (and even when the committing relay is gone at once), that a relay may ignore its own,
/// and what is left out when a notice would not fit NOTIFY's limit.
@Suite struct RelayNoticeTests {
    @Test func aCommitNotifiesOtherRelaysOfEachDocumentWithWhatIsStored() throws {
        let test = try PostgresTestLoop()
        let writer = try test.openStore(databaseID: "notified")
        let listener = try test.openStore(databaseID: "notified")
        let stranger = try test.openStore(databaseID: "someone-else")
        var notices: [CommitNotice] = []
        var strangerNotices: [CommitNotice] = []
        stranger.listen(onNotice: { strangerNotices.append($0) }) { _ in }
        test.listen(listener) { notices.append($0) }

        let writes = try RecordedWrites(seed: 11, operations: 40)
        let documents = writes.finalDeltas
        _ = try test.commit(writer, documents)
        // Each notice carries the document's events as stored, so another relay need not read.
        let expected = documents.compactMap { delta -> CommitNotice? in
            guard let document = delta.documents.first else { return nil }
            return CommitNotice(
                collection: "drawings", documentID: document.documentID, events: document.events)
        }
        test.wait(for: "the notices") { notices.count >= expected.count }
        #expect(notices == expected)
        for (notice, delta) in zip(notices, documents) {
            let id = delta.documents[0].documentID
            #expect(notice.stored == writes.final.versions(collection: "drawings", documentID: id)[id])
        }

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

    @Test func aCommitsRowsAreDurableAndItsNoticesSentAfterThem() throws {
        let test = try PostgresTestLoop()
        let writer = try test.openStore(databaseID: "two-steps")
        let listener = try test.openStore(databaseID: "two-steps")
        var seen: [(notice: CommitNotice, stored: Int)] = []
        test.listen(listener) { notice in
            // The rows are committed when their notice arrives: a read on it finds them.
            listener.changes(
                collection: "drawings", documentID: notice.documentID, since: DocumentVersions()
            ) { outcome in
                seen.append((notice, (try? outcome.get())?.delta.eventCount ?? -1))
            }
        }
        let writes = try RecordedWrites(seed: 5, operations: 20)
        let documents = writes.finalDeltas
        let stored = try test.commit(writer, documents)
        #expect(stored == documents.reduce(0) { $0 + $1.eventCount })
        test.wait(for: "the notices") { seen.count >= documents.count }
        for (entry, delta) in zip(seen, documents) {
            #expect(entry.notice.documentID == delta.documents[0].documentID)
            #expect(entry.stored == delta.eventCount)
        }
        // Only the notices' own transaction skips the flush: the writer's session still
        // commits durably, as the operator configured it.
        let setting = try test.run(writer.connection, "SELECT current_setting('synchronous_commit')")
        #expect(setting.text(0, 0) == "on")
    }

    @Test func aCommitSentByARelayThatIsGoneAtOnceStillNotifiesTheOthers() throws {
        let test = try PostgresTestLoop()
        let writer = try test.openStore(databaseID: "gone")
        let listener = try test.openStore(databaseID: "gone")
        var notices: [CommitNotice] = []
        test.listen(listener) { notices.append($0) }
        let writes = try RecordedWrites(seed: 8, operations: 20)
        var answered = false
        writer.commit(writes.finalDeltas) { _ in answered = true }
        // The relay's connection goes away right after the call went out (as when it is killed).
        writer.connection.close()
        test.wait(for: "the notices") { notices.count >= writes.finalDeltas.count }
        #expect(notices.map(\.documentID) == writes.finalDeltas.map { $0.documents[0].documentID })
        let fresh = try test.openStore(databaseID: "gone")
        #expect(try test.changes(fresh).eventCount == writes.finalDeltas.reduce(0) { $0 + $1.eventCount })
        #expect(answered)
    }

    @Test func aRelayIgnoringItsOwnNoticesStillHearsTheOthers() throws {
        let test = try PostgresTestLoop()
        let one = try test.openStore(databaseID: "own")
        let other = try test.openStore(databaseID: "own")
        var heard: [CommitNotice] = []
        test.listen(one, ignoringOwn: true) { heard.append($0) }
        let writes = try RecordedWrites(seed: 13, operations: 20)
        let documents = writes.finalDeltas
        _ = try test.commit(one, Array(documents.prefix(1)))
        _ = try test.commit(other, Array(documents.dropFirst()))
        test.wait(for: "the other relay's notices") { heard.count >= documents.count - 1 }
        #expect(heard.map(\.documentID) == documents.dropFirst().map { $0.documents[0].documentID })
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
}

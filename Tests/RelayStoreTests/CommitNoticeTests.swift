import RelayStore
import ReplicaCore
import TestSupport
import Testing

@Suite struct CommitNoticeTests {
    /// The events of one document as a client's write makes them.
    private func events(peer: UInt64, strokes: [String], value: String) throws -> [DocumentEvent] {
        var state = ReplicaState(peerID: PeerID(peer))
        for (index, key) in strokes.enumerated() {
            _ = try state.execute(
                DQLParser.parse("INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE_LOCAL_DIFF"),
                arguments: [
                    "doc": .object(["_id": .string("d 1"), "strokes": .object([key: .string(value)])])
                ],
                wall: Int64(index + 1))
        }
        let delta = state.changes(collection: "drawings", documentID: "d 1", since: DocumentVersions())
        return try #require(delta.documents.first).events
    }

    @Test func aNoticeCarriesTheCommitsEventsWhenTheyFit() throws {
        let written = try events(peer: 0xF000_0000_0000_0007, strokes: ["a", "b", "c"], value: "ink")
        let notice = CommitNotice(collection: "drawings", documentID: "d 1", events: written)
        let payload = try #require(notice.payload)
        #expect(payload.hasPrefix("dt2 "))
        let read = try #require(CommitNotice(payload: payload))
        #expect(read == notice)
        #expect(read.events == written)
        #expect(read.stored == VersionVector([PeerID(0xF000_0000_0000_0007): UInt64(written.count)]))
        #expect(!read.isNew(comparedWith: read.stored ?? VersionVector()))
        // A record that is not an event makes the payload unreadable, never a different event.
        #expect(CommitNotice(payload: payload + " 00") == nil)
        #expect(CommitNotice(payload: String(payload.dropLast()) + "g") == nil)
    }

    @Test func eventsTooLargeForNotifyLeaveTheVectorForAReadByVersion() throws {
        // Hex doubles the records: 4,500 bytes of one value cannot travel in 8,000.
        let written = try events(
            peer: 9, strokes: ["a", "b"], value: String(repeating: "x", count: 4_500))
        let notice = CommitNotice(collection: "drawings", documentID: "d 1", events: written)
        let payload = try #require(notice.payload)
        #expect(payload.utf8.count <= CommitNotice.payloadLimit)
        #expect(payload.hasPrefix("dt1 "))
        let read = try #require(CommitNotice(payload: payload))
        #expect(read.events == nil)
        #expect(read.stored == notice.stored)
        #expect(read.isNew(comparedWith: VersionVector([PeerID(9): 1])))
    }
}

import Testing

@testable import ReplicaCore

/// `readInPlace` reads a document where it lies: what it reads is what a copy shows, a missing
/// document is nil, and reading leaves the state as it was (what is unsaved included).
@Suite struct ReadInPlaceTests {
    private static let key = DocumentKey(collection: "drawings", id: "d")

    @Test func readsWhatACopyShowsAndChangesNothing() throws {
        var state = ReplicaState(peerID: PeerID(1))
        #expect(state.readInPlace(Self.key) { $0.eventCount } == nil)
        try state.upsert(
            [DocumentEntry(path: ["strokes", "a"], value: .string("x"))], into: Self.key, wall: 1_000)
        let copy = try #require(state.document(Self.key))
        let read = state.readInPlace(Self.key) { ($0.eventCount, $0.versionVector, $0.fields) }
        #expect(read?.0 == copy.eventCount)
        #expect(read?.1 == copy.versionVector)
        #expect(read?.2 == copy.fields)
        #expect(state.readInPlace(DocumentKey(collection: "drawings", id: "other")) { $0.eventCount } == nil)
        // The write is still unsaved, and the document the same.
        let unsaved = state.takeUnsaved()
        #expect(unsaved.map(\.key) == [Self.key])
        #expect(unsaved.first?.dots.count == copy.eventCount)
        #expect(state.document(Self.key)?.fields == copy.fields)
    }
}

import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore

/// What a commit stores and tells observers, now read from the unsaved dots in place: the dots
/// are exactly those whose stored event changed since the last commit (in order, each once), the
/// changed paths are those events' paths (the set the observers' patches were read from when
/// every touched event was copied out), and the row written from the blocks and unencoded
/// events brings the document from before to the document now.
@Suite struct UnsavedInPlaceTests {
    static let collection = "drawings"

    @Test(arguments: UInt64(1)...12)
    func unsavedDotsPathsAndRowAreWhatTheChangedEventsSay(seed: UInt64) throws {
        let workload = RandomWorkload(scope: .document)
        var walk = TwoReplicaWalk(seed: seed, workload: workload)
        var blocksSeen = 0
        // Deltas go through the wire format, so a delta carries its block and the row keeps it.
        try walk.run(steps: 400, wall: { Int64($0) }) { change, _, replica, before in
            let blocks = Self.expectUnsaved(&replica, since: before, workload: workload)
            if change == .applied { blocksSeen += blocks }
        }
        #expect(blocksSeen > 0, "no commit kept a received block")
    }

    /// Checks what `takeUnsaved` hands over against the documents before and now; returns how
    /// many received blocks it held.
    @discardableResult
    static func expectUnsaved(
        _ state: inout ReplicaState, since before: ReplicaState, workload: RandomWorkload
    )
        -> Int
    {
        let unsaved = state.takeUnsaved()
        var blocks = 0
        for id in workload.documentIDs {
            let key = DocumentKey(collection: collection, id: id)
            let (old, now) = (before.document(key), state.document(key))
            let changed = (now?.dots ?? []).filter { now?.event(at: $0) != old?.event(at: $0) }
            guard let change = unsaved.first(where: { $0.key == key }) else {
                #expect(changed.isEmpty, "document \(id) changed and nothing is unsaved")
                continue
            }
            blocks += change.blocks.count
            #expect(change.dots == changed)
            #expect(state.changedPaths(of: change) == Set(changed.compactMap { now?.event(at: $0)?.path }))
            #expect(change.unencoded.allSatisfy { now?.event(at: $0.dot) == $0 })
            // The row as the store writes it, decoded onto the document from before.
            let record = DocumentEvent.encodedList(blocks: change.blocks, then: change.unencoded)
            var stored: [DocumentEvent] = []
            #expect(throws: Never.self) { try DocumentEvent.decodeList(record) { stored.append($0) } }
            #expect((old ?? DocumentState()).merged(with: DocumentState(events: stored)) == now)
        }
        #expect(
            Set(unsaved.map(\.key)).isSubset(
                of: workload.documentIDs.map { DocumentKey(collection: collection, id: $0) }))
        return blocks
    }
}

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
            if case .applied = change { blocksSeen += blocks }
        }
        #expect(blocksSeen > 0, "no commit kept a received block")
    }

    /// A large delta as the store applies it: its new blocks stored first, each as a row of its
    /// own, while it merges. The unsaved row then holds only what the merge changed besides
    /// them, and the blocks' rows and that row together bring the document from before to now.
    @Test(arguments: UInt64(21)...32)
    func blocksStoredFirstAndTheUnsavedRowAreWhatTheChangedEventsSay(seed: UInt64) throws {
        let workload = RandomWorkload(scope: .document)
        var walk = TwoReplicaWalk(seed: seed, workload: workload, storesNewBlocksFirst: true)
        var storedFirst = 0
        var keptInUnsaved = 0
        try walk.run(steps: 400, wall: { Int64($0) }) { change, _, replica, before in
            guard case .applied(let blocks) = change else {
                Self.expectUnsaved(&replica, since: before, workload: workload)
                return
            }
            storedFirst += blocks.count
            keptInUnsaved += Self.expectUnsaved(
                &replica, since: before, workload: workload, storedFirst: blocks)
        }
        #expect(storedFirst > 0, "no delta's blocks were stored first")
        #expect(keptInUnsaved == 0, "a block stored first was handed over to be stored again")
    }

    /// Checks what `takeUnsaved` hands over against the documents before and now; returns how
    /// many received blocks it held.
    @discardableResult
    static func expectUnsaved(
        _ state: inout ReplicaState, since before: ReplicaState, workload: RandomWorkload,
        storedFirst: [(key: DocumentKey, block: ArraySlice<UInt8>)] = []
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
            // The rows as the store writes them (the blocks stored first, one each, then the row
            // of what is unsaved), decoded onto the document from before.
            var stored: [DocumentEvent] = []
            for first in storedFirst where first.key == key {
                let row = DocumentEvent.encodedList(blocks: [first.block], then: [])
                #expect(throws: Never.self) { try DocumentEvent.decodeList(row) { stored.append($0) } }
            }
            let record = DocumentEvent.encodedList(blocks: change.blocks, then: change.unencoded)
            #expect(throws: Never.self) { try DocumentEvent.decodeList(record) { stored.append($0) } }
            #expect((old ?? DocumentState()).merged(with: DocumentState(events: stored)) == now)
        }
        #expect(
            Set(unsaved.map(\.key)).isSubset(
                of: workload.documentIDs.map { DocumentKey(collection: collection, id: $0) }))
        return blocks
    }
}

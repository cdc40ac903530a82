import DrawingSync
import ReplicaCore
import ReplicaStore
import StrokeKit
import Testing

/// The original app's DrawingSyncCoordinatorTests, against a real replica on disk.
@Suite struct DrawingSyncCoordinatorTests {
    typealias F = StrokeFixtures

    @Test func aNewStrokeIsWrittenToTheReplica() throws {
        let peer = try TestPeer(peer: 1)
        try peer.draw(F.group(F.stroke(at: 1, key: F.key(0))))
        #expect(try peer.storedStrokes().count == 1)
    }

    @Test func severalStrokesAreWrittenInOneTransaction() throws {
        let peer = try TestPeer(peer: 1)
        try peer.draw(
            F.group(F.stroke(at: 1, key: F.key(0))), F.group(F.stroke(at: 2, key: F.key(1))),
            F.group(F.stroke(at: 3, key: F.key(2))))
        #expect(try peer.storedStrokes().count == 3)
        #expect(peer.coordinator.transactionCount == 1)
    }

    @Test func aRemovedStrokeIsUnset() throws {
        let peer = try TestPeer(peer: 1)
        try peer.draw(F.group(F.stroke(at: 1, key: F.key(0))), F.group(F.stroke(at: 2, key: F.key(1))))
        try peer.erase(F.key(0))
        #expect(try Array(peer.storedStrokes().keys) == [F.key(1).rawValue])
    }

    @Test func anInsertAndARemoveGoInOneTransaction() throws {
        let peer = try TestPeer(peer: 1)
        try peer.draw(F.group(F.stroke(at: 1, key: F.key(0))), F.group(F.stroke(at: 2, key: F.key(1))))
        peer.coordinator.edit(
            [F.key(0): StrokeGroup?.none, F.key(2): F.group(F.stroke(at: 3, key: F.key(2)))],
            now: peer.clock.now)
        try peer.settle()
        #expect(try Set(peer.storedStrokes().keys) == [F.key(1).rawValue, F.key(2).rawValue])
        #expect(peer.coordinator.transactionCount == 2)
    }

    @Test func aChangeWrittenDirectlyToTheReplicaReachesTheCanvas() throws {
        let peer = try TestPeer(peer: 1)
        try peer.draw(F.group(F.stroke(at: 1, key: F.key(0))))
        let other = F.group(F.stroke(at: 9, key: F.key(5, peer: "bbbbbb")))
        try peer.replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE_LOCAL_DIFF",
            arguments: [
                "doc": .object(["_id": .string("drawing-1"), "strokes": .object(F.strokesMap(other))])
            ])
        #expect(peer.coordinator.drawing.count == 2)
        #expect(peer.coordinator.drawing[other.key] == other)
        #expect(peer.remoteChanges.count == 1)
    }

    @Test func aMaskedStrokeIsRewrittenUnderItsKey() throws {
        let peer = try TestPeer(peer: 1)
        let plain = F.stroke(at: 1, key: F.key(0))
        try peer.draw(F.group(plain))
        try peer.draw(F.group(F.masked(plain)))
        let stored = try peer.storedStrokes()[plain.key.rawValue]?.stringValue
        #expect(try StrokeGroupCodec.decode(Base64.decode(stored ?? "")).pieces[0].mask.isEmpty == false)
    }

    @Test func aMaskWrittenByAnotherPeerReplacesTheLocalStroke() throws {
        let peer = try TestPeer(peer: 1)
        let plain = F.stroke(at: 1, key: F.key(0))
        try peer.draw(F.group(plain))
        let masked = F.group(F.masked(plain))
        try peer.replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE",
            arguments: [
                "doc": .object(["_id": .string("drawing-1"), "strokes": .object(F.strokesMap(masked))])
            ])
        #expect(peer.coordinator.drawing[plain.key] == masked)
        #expect(peer.coordinator.model.synced[plain.key]?.group == masked)
    }

    @Test func maskRemoveAndAddInOneFlush() throws {
        let peer = try TestPeer(peer: 1)
        let a = F.stroke(at: 1, key: F.key(0))
        try peer.draw(F.group(a), F.group(F.stroke(at: 2, key: F.key(1))))
        peer.coordinator.edit(
            [
                a.key: F.group(F.masked(a)), F.key(1): StrokeGroup?.none,
                F.key(2): F.group(F.stroke(at: 3, key: F.key(2))),
            ],
            now: peer.clock.now)
        try peer.settle()
        let stored = try peer.storedStrokes()
        #expect(stored.count == 2 && stored[F.key(1).rawValue] == nil)
        #expect(
            try StrokeGroupCodec.decode(Base64.decode(stored[a.key.rawValue]?.stringValue ?? "")).pieces[0]
                .mask
                .isEmpty == false)
    }

    @Test func fullRoundTripThroughTheReplica() throws {
        let peer = try TestPeer(peer: 1)
        try peer.draw(F.group(F.stroke(at: 1, key: F.key(0))), F.group(F.stroke(at: 2, key: F.key(1))))
        #expect(peer.coordinator.model.drawing().count == 2)
        try peer.erase(F.key(0))
        #expect(try peer.storedStrokes().count == 1)
        #expect(peer.coordinator.model.drawing().count == 1)
        #expect(peer.coordinator.drawing.count == 1)
    }

    @Test func aCoordinatorForAnotherDrawingStartsEmpty() throws {
        let peer = try TestPeer(peer: 1)
        try peer.draw(F.group(F.stroke(at: 1, key: F.key(0))))
        try DrawingList(replica: peer.replica).create(id: "drawing-2", name: "Second")
        let second = DrawingSyncCoordinator(replica: peer.replica, drawingID: "drawing-2")
        #expect(second.drawingID == "drawing-2")
        #expect(second.drawing.isEmpty && second.model.synced.isEmpty)
    }

    @Test func aNewCoordinatorReceivesTheStrokesAlreadyStored() throws {
        let peer = try TestPeer(peer: 1)
        try peer.draw(F.group(F.stroke(at: 1, key: F.key(0))))
        let again = DrawingSyncCoordinator(replica: peer.replica, drawingID: "drawing-1")
        #expect(again.model.synced.count == 1)
        #expect(again.drawing.count == 1)
    }

    @Test func nothingIsWrittenBeforeTheQuietPeriodEnds() throws {
        let peer = try TestPeer(peer: 1)
        peer.coordinator.edit([F.key(0): F.group(F.stroke(at: 1, key: F.key(0)))], now: 0)
        try peer.coordinator.tick(now: 50)
        peer.coordinator.edit([F.key(1): F.group(F.stroke(at: 2, key: F.key(1)))], now: 50)
        try peer.coordinator.tick(now: 100)
        #expect(try peer.storedStrokes().isEmpty)
        try peer.coordinator.tick(now: 150)
        #expect(try peer.storedStrokes().count == 2)
        #expect(peer.coordinator.transactionCount == 1)
    }

    @Test func anUnchangedFlushWritesNothing() throws {
        let peer = try TestPeer(peer: 1)
        let group = F.group(F.stroke(at: 1, key: F.key(0)))
        try peer.draw(group)
        try peer.draw(group)
        #expect(peer.coordinator.transactionCount == 1)
    }

    @Test func ownWritesNeverComeBackAsRemoteChanges() throws {
        let peer = try TestPeer(peer: 1)
        try peer.draw(F.group(F.stroke(at: 1, key: F.key(0))), F.group(F.stroke(at: 2, key: F.key(1))))
        try peer.erase(F.key(0))
        #expect(peer.remoteChanges.isEmpty)
        #expect(peer.coordinator.unflushedKeys.isEmpty)
    }

    @Test func changingOneStrokeOfTenThousandEncodesOneGroupAndWritesOneEntry() throws {
        let peer = try TestPeer(peer: 1)
        var edits: [StrokeKey: StrokeGroup?] = [:]
        for index in 0..<10_000 {
            let key = F.key(Int64(index))
            edits[key] = F.group(F.stroke(at: Double(index % 80), Double(index % 40), key: key))
        }
        peer.coordinator.edit(edits, now: peer.clock.now)
        try peer.settle()
        let encodedBefore = peer.coordinator.model.encodeCount
        let versionsBefore = try peer.replica.versions(collection: "drawings", documentID: "drawing-1")
        let target = F.key(4_321)
        try peer.draw(F.group(F.masked(peer.coordinator.drawing[target]!.pieces[0])))
        #expect(peer.coordinator.model.encodeCount - encodedBefore == 1)
        let delta = try peer.replica.changes(
            collection: "drawings", documentID: "drawing-1", since: versionsBefore)
        #expect(delta.eventCount == 1)
    }

    /// Erasing part of a stroke writes its sweep, one small entry, and never the stroke again:
    /// the only register value in the commit is the sweep (the first sweep of a stroke also
    /// makes the maps it lives in), and a second erase of the same stroke is one event.
    @Test func erasingPartOfOneStrokeOfTenThousandWritesOneNewEntry() throws {
        let peer = try TestPeer(peer: 1)
        var edits: [StrokeKey: StrokeGroup?] = [:]
        for index in 0..<10_000 {
            let key = F.key(Int64(index))
            edits[key] = F.group(F.stroke(at: Double(index % 80), Double(index % 40), key: key))
        }
        peer.coordinator.edit(edits, now: peer.clock.now)
        try peer.settle()
        let target = F.key(4_321)
        let start = try #require(peer.coordinator.drawing[target]?.base.first?.path.first?.point)
        let strokesBefore = try peer.storedStrokes()
        let encodedBefore = peer.coordinator.model.encodeCount
        let sweepsEncodedBefore = peer.coordinator.model.sweepEncodeCount
        let versionsBefore = try peer.replica.versions(collection: "drawings", documentID: "drawing-1")

        let sweepKey = try #require(
            try peer.sweep(target, along: [(start.x + 0.5, start.y + 4.5), (start.x + 4.5, start.y + 0.5)]))
        #expect(peer.coordinator.drawing[target]?.pieces.count == 2)
        #expect(peer.coordinator.model.encodeCount == encodedBefore)
        #expect(peer.coordinator.model.sweepEncodeCount - sweepsEncodedBefore == 1)
        let delta = try peer.replica.changes(
            collection: "drawings", documentID: "drawing-1", since: versionsBefore)
        let values = delta.documents.flatMap(\.events).filter { $0.kind == .value }
        #expect(values.map(\.path) == [["sweeps", target.rawValue, sweepKey.rawValue]])
        let sweepBytes = values.first?.value?.stringValue?.utf8.count ?? .max
        #expect(sweepBytes < strokesBefore[target.rawValue]?.stringValue?.utf8.count ?? 0)
        #expect(try peer.storedStrokes() == strokesBefore)

        let versionsBetween = try peer.replica.versions(collection: "drawings", documentID: "drawing-1")
        #expect(try peer.sweep(target, along: [(start.x, start.y + 2), (start.x + 2, start.y)]) != nil)
        let second = try peer.replica.changes(
            collection: "drawings", documentID: "drawing-1", since: versionsBetween)
        #expect(second.eventCount == 1)
        #expect(peer.coordinator.model.encodeCount == encodedBefore)
    }

    /// An edit longer than the drawing's journal (an undo of a wide erase) is found by comparing
    /// the drawing with what was synchronized: every key it touched is flushed, and a key it did
    /// not touch still takes a change from the replica inside the quiet period.
    @Test func anEditLongerThanTheJournalFlushesExactlyTheKeysItChanged() throws {
        let peer = try TestPeer(peer: 1)
        let count = Drawing.journalLimit * 2
        let groups = (0..<count).map { F.group(F.stroke(at: Double($0 % 40), key: F.key(Int64($0)))) }
        peer.coordinator.edit(now: peer.clock.now) { drawing in
            for group in groups { drawing.insert(group) }
        }
        #expect(peer.coordinator.unflushedKeys.count == count)
        try peer.settle()
        #expect(try peer.storedStrokes().count == count)
        peer.coordinator.edit(now: peer.clock.now) { drawing in
            for group in groups.dropFirst() { drawing.insert(F.group(F.masked(group.pieces[0]))) }
        }
        #expect(peer.coordinator.unflushedKeys == Set(groups.dropFirst().map(\.key)))
        let untouched = groups[0]
        let moved = F.group(F.stroke(at: 70, key: untouched.key))
        try peer.replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE_LOCAL_DIFF",
            arguments: [
                "doc": .object(["_id": .string("drawing-1"), "strokes": .object(F.strokesMap(moved))])
            ])
        #expect(peer.coordinator.drawing[untouched.key] == moved)
        try peer.settle()
        #expect(
            try peer.storedStrokes()[untouched.key.rawValue]?.stringValue == EncodedGroup(moved).value)
    }
}

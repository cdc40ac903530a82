import DrawingSync
import ReplicaCore
import ReplicaStore
import StrokeKit
import Testing

/// The trash between two replicas that sync: a drawing one peer deletes stays whole on the other
/// (its canvas keeps its strokes), and one peer's restore brings it back on both.
@Suite struct TrashSyncTests {
    typealias F = StrokeFixtures

    @Test func aDeletedDrawingKeepsItsStrokesOnThePeerAndARestoreBringsItBackThere() throws {
        let a = try TestPeer(peer: 0xA000_0000_0000_0001)
        let b = try TestPeer(peer: 0xB000_0000_0000_0002)
        let listA = try DrawingList(replica: a.replica)
        let listB = try DrawingList(replica: b.replica)
        try syncBoth(a, b)
        let stroke = F.group(F.stroke(at: 1, key: F.key(0, peer: "aaaaaa")))
        try a.draw(stroke)
        try syncBoth(a, b)

        try listB.delete(id: "drawing-1", now: 7_000)
        // Meanwhile A, with the drawing open, draws once more: the edit is kept, in the trash.
        let later = F.group(F.stroke(at: 20, key: F.key(5, peer: "aaaaaa")))
        try a.draw(later)
        try syncBoth(a, b)
        #expect(listA.entries.isEmpty && listA.trash.map(\.id) == ["drawing-1"])
        #expect(listA.trash.first?.trashedAt == 7_000)
        #expect(a.coordinator.drawing.groups == [stroke, later])
        #expect(try a.storedStrokes() == b.storedStrokes())

        try listB.restore(id: "drawing-1")
        try syncBoth(a, b)
        for list in [listA, listB] {
            #expect(list.entries == [.init(id: "drawing-1", name: "Test drawing")] && list.trash.isEmpty)
        }
        #expect(a.coordinator.drawing.groups == [stroke, later])
        #expect(try b.storedStrokes().count == 2)
    }

    /// A deletes again while B restores after the first deletion: the restore takes out only the
    /// deletion it had seen, so the newer one stands, on both replicas alike.
    @Test func aConcurrentDeleteAndRestoreConverge() throws {
        let a = try TestPeer(peer: 0xA000_0000_0000_0001)
        let b = try TestPeer(peer: 0xB000_0000_0000_0002)
        let listA = try DrawingList(replica: a.replica)
        let listB = try DrawingList(replica: b.replica)
        try listA.delete(id: "drawing-1", now: 1_000)
        try syncBoth(a, b)
        try listB.restore(id: "drawing-1")  // saw A's deletion: takes it out
        try listA.delete(id: "drawing-1", now: 2_000)  // A deletes again, not having seen the restore
        try syncBoth(a, b)
        #expect(listA.entries == listB.entries && listA.trash == listB.trash)
        // The second deletion is newer than what the restore removed: it stands.
        #expect(listA.trash.map(\.trashedAt) == [2_000])
    }
}

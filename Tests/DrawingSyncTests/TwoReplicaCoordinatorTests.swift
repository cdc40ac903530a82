import DrawingSync
import ReplicaCore
import ReplicaStore
import StrokeKit
import Testing

/// What the original app never tested: two coordinators over two replicas that sync.
@Suite struct TwoReplicaCoordinatorTests {
    typealias F = StrokeFixtures

    func peers() throws -> (TestPeer, TestPeer) {
        let a = try TestPeer(peer: 0xA000_0000_0000_0001)
        let b = try TestPeer(peer: 0xB000_0000_0000_0002)
        try syncBoth(a, b)
        return (a, b)
    }

    func expectSameCanvas(_ a: TestPeer, _ b: TestPeer, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        #expect(a.coordinator.drawing == b.coordinator.drawing, sourceLocation: sourceLocation)
        #expect(try a.storedStrokes() == b.storedStrokes(), sourceLocation: sourceLocation)
    }

    @Test(arguments: [true, false])
    func strokesOnBothPeersAreKeptInEitherDeliveryOrder(aFirst: Bool) throws {
        let (a, b) = try peers()
        let fromA = F.group(F.stroke(at: 1, key: F.key(0, peer: "aaaaaa")))
        let fromB = F.group(F.stroke(at: 30, key: F.key(7, peer: "bbbbbb")))
        try a.draw(fromA)
        try b.draw(fromB)
        if aFirst {
            try deliver(from: a, to: b)
            try deliver(from: b, to: a)
        } else {
            try deliver(from: b, to: a)
            try deliver(from: a, to: b)
        }
        try expectSameCanvas(a, b)
        #expect(a.coordinator.drawing.groups == [fromA, fromB])
    }

    /// A peer's one-stroke change reaches the other canvas without re-reading the drawing: the
    /// commit names the entry, and only that entry is read.
    @Test func aRemoteChangeOfOneStrokeAmongThousandsReadsOnlyThatStroke() throws {
        let (a, b) = try peers()
        var edits: [StrokeKey: StrokeGroup?] = [:]
        for index in 0..<2_000 {
            let key = F.key(Int64(index), peer: "aaaaaa")
            edits[key] = F.group(F.stroke(at: Double(index % 80), Double(index % 40), key: key))
        }
        a.coordinator.edit(edits, now: a.clock.now)
        try a.settle()
        try deliver(from: a, to: b)
        #expect(b.coordinator.drawing.count == 2_000)

        let target = F.key(1_234, peer: "aaaaaa")
        let masked = F.group(F.masked(a.coordinator.drawing[target]!.pieces[0]))
        let readBefore = b.coordinator.model.readCount
        let changesBefore = b.remoteChanges.count
        try a.draw(masked)
        try deliver(from: a, to: b)
        #expect(b.coordinator.model.readCount - readBefore == 1)
        #expect(b.remoteChanges.count == changesBefore + 1)
        #expect(b.remoteChanges.last.map { Array($0.groups.keys) } == [target])
        #expect(b.coordinator.drawing[target] == masked)

        // A removal is read as one absent entry.
        try a.erase(target)
        try deliver(from: a, to: b)
        #expect(b.coordinator.model.readCount - readBefore == 2)
        #expect(b.remoteChanges.last.map { Array($0.groups.keys) } == [target])
        #expect(b.coordinator.drawing[target] == nil)
        try expectSameCanvas(a, b)
    }

    @Test func concurrentEditsOfOneStrokeEndWithTheSameWinnerEverywhere() throws {
        let (a, b) = try peers()
        let stroke = F.stroke(at: 1, key: F.key(0, peer: "aaaaaa"))
        try a.draw(F.group(stroke))
        try syncBoth(a, b)
        try a.draw(F.group(F.masked(stroke, radius: 0.5)))
        try b.draw(F.group(F.masked(stroke, radius: 1.5)))
        try syncBoth(a, b)
        try expectSameCanvas(a, b)
        #expect(a.coordinator.drawing.count == 1)
    }

    @Test func anEditWinsOverAConcurrentErase() throws {
        let (a, b) = try peers()
        let stroke = F.stroke(at: 1, key: F.key(0, peer: "aaaaaa"))
        try a.draw(F.group(stroke))
        try syncBoth(a, b)
        try a.erase(stroke.key)
        try b.draw(F.group(F.masked(stroke)))
        try syncBoth(a, b)
        try expectSameCanvas(a, b)
        #expect(a.coordinator.drawing[stroke.key] == F.group(F.masked(stroke)))
    }

    @Test func strokesDrawnInTheSameMillisecondOnTwoPeersAreBothKept() throws {
        let (a, b) = try peers()
        try a.draw(F.group(F.stroke(at: 1, key: F.key(0, peer: "aaaaaa"))))
        try b.draw(F.group(F.stroke(at: 9, key: F.key(0, peer: "bbbbbb"))))
        try syncBoth(a, b)
        try expectSameCanvas(a, b)
        #expect(a.coordinator.drawing.count == 2)
    }

    @Test func duplicatedDeliveryChangesNothing() throws {
        let (a, b) = try peers()
        try a.draw(F.group(F.stroke(at: 1, key: F.key(0))))
        try deliver(from: a, to: b)
        let changesSeen = b.remoteChanges.count
        try deliver(from: a, to: b)
        try deliver(from: a, to: b)
        #expect(b.remoteChanges.count == changesSeen)
        try expectSameCanvas(a, b)
    }

    @Test func offlineWorkOnBothSidesMergesOnReconnect() throws {
        let (a, b) = try peers()
        for index in 0..<20 {
            try a.draw(F.group(F.stroke(at: Double(index), key: F.key(Int64(index) * 10, peer: "aaaaaa"))))
            try b.draw(
                F.group(F.stroke(at: Double(index), 20, key: F.key(Int64(index) * 10 + 5, peer: "bbbbbb"))))
        }
        try a.erase(F.key(0, peer: "aaaaaa"))
        try b.erase(F.key(5, peer: "bbbbbb"))
        try syncBoth(a, b)
        try expectSameCanvas(a, b)
        #expect(a.coordinator.drawing.count == 38)
    }

    @Test func receivingARemoteChangeWritesNothing() throws {
        let (a, b) = try peers()
        try a.draw(F.group(F.stroke(at: 1, key: F.key(0))), F.group(F.stroke(at: 2, key: F.key(1))))
        try a.erase(F.key(0))
        let before = b.coordinator.transactionCount
        try deliver(from: a, to: b)
        try b.settle()
        #expect(b.coordinator.transactionCount == before)
        #expect(b.coordinator.deadline == nil)
        #expect(b.coordinator.drawing.count == 1)
    }

    @Test func aRemoteChangeInsideTheQuietPeriodDoesNotUndoALocalErase() throws {
        let (a, b) = try peers()
        let shared = F.group(F.stroke(at: 1, key: F.key(0, peer: "aaaaaa")))
        try a.draw(shared)
        try syncBoth(a, b)
        // A erases, but its flush has not happened when B's new stroke arrives.
        a.coordinator.edit([shared.key: StrokeGroup?.none], now: a.clock.now)
        try b.draw(F.group(F.stroke(at: 20, key: F.key(50, peer: "bbbbbb"))))
        try deliver(from: b, to: a)
        #expect(a.coordinator.drawing[shared.key] == nil)
        #expect(a.coordinator.drawing.count == 1)
        try a.settle()
        try syncBoth(a, b)
        try expectSameCanvas(a, b)
        #expect(b.coordinator.drawing[shared.key] == nil)
    }

    @Test func aRemoteEditOfALocallyErasedStrokeInsideTheQuietPeriodKeepsTheErase() throws {
        let (a, b) = try peers()
        let stroke = F.stroke(at: 1, key: F.key(0, peer: "aaaaaa"))
        try a.draw(F.group(stroke))
        try syncBoth(a, b)
        a.coordinator.edit([stroke.key: StrokeGroup?.none], now: a.clock.now)
        try b.draw(F.group(F.masked(stroke)))
        try deliver(from: b, to: a)
        #expect(a.coordinator.drawing[stroke.key] == nil)
        try a.settle()
        try syncBoth(a, b)
        try expectSameCanvas(a, b)
    }
}

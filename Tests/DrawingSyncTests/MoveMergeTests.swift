import DrawingSync
import ReplicaCore
import StrokeKit
import StrokeKitTestSupport
import Testing

/// Moving a stroke (the select tool) rewrites its stroke as drawn with a new transform: one
/// last-write-wins register per group, so two peers moving one stroke end with one position,
/// while sweeps, kept in the stroke's own coordinates beside it, move with it and merge.
@Suite struct MoveMergeTests {
    typealias F = StrokeFixtures
    typealias S = SweepMergeTests

    func peers() throws -> (TestPeer, TestPeer) {
        let peers = try SweepMergeTests().peers()
        return (peers[0], peers[1])
    }

    func expectConverged(_ a: TestPeer, _ b: TestPeer, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        try SweepMergeTests().expectConverged([a, b], sourceLocation: sourceLocation)
    }

    @Test func anErasedPartMovesWithTheStroke() throws {
        let (a, b) = try peers()
        try a.sweep(S.line.key, along: S.along(0, 5))
        try a.move(S.line.key, dx: 0, dy: 2)
        #expect(a.text == ["", "", "", "", S.leftEndGone])
        try deliver(from: a, to: b)
        #expect(b.text == ["", "", "", "", S.leftEndGone])
        // One stroke as drawn and one sweep are stored: the move rewrote the first only.
        let document = try a.storedDocument()
        #expect(document["strokes"]?.objectValue?.count == 1)
        #expect(document["sweeps"]?.objectValue?[S.line.key.rawValue]?.objectValue?.count == 1)
        try expectConverged(a, b)
    }

    @Test(arguments: [true, false])
    func aMoveAndAConcurrentErasureBothApply(aFirst: Bool) throws {
        let (a, b) = try peers()
        try a.move(S.line.key, dx: 0, dy: 2)
        try b.sweep(S.line.key, along: S.along(26, 31))
        if aFirst {
            try deliver(from: a, to: b)
            try deliver(from: b, to: a)
        } else {
            try deliver(from: b, to: a)
            try deliver(from: a, to: b)
        }
        // B erased the right end where the line was; it is the right end wherever it went.
        #expect(a.text == ["", "", "", "", S.rightEndGone])
        try expectConverged(a, b)
    }

    /// The erasure arrives while the move waits for its quiet period: the flush writes the move
    /// and must not take the peer's sweep back out.
    @Test func anErasureArrivingBeforeTheMoveIsFlushedIsKept() throws {
        let (a, b) = try peers()
        let group = try #require(a.coordinator.drawing[S.line.key])
        a.coordinator.edit([S.line.key: group.translated(dx: 0, dy: 2)], now: a.clock.now)
        try b.sweep(S.line.key, along: S.along(26, 31))
        try deliver(from: b, to: a)
        #expect(a.text == ["", "", "", "", S.rightEndGone])
        try a.settle()
        try deliver(from: a, to: b)
        #expect(b.text == ["", "", "", "", S.rightEndGone])
        try expectConverged(a, b)
    }

    @Test(arguments: [true, false])
    func twoPeersMovingOneStrokeEndWithOnePositionOnBoth(aFirst: Bool) throws {
        let (a, b) = try peers()
        try a.move(S.line.key, dx: 0, dy: 2)
        try b.move(S.line.key, dx: 3, dy: 5)
        if aFirst {
            try deliver(from: a, to: b)
            try deliver(from: b, to: a)
        } else {
            try deliver(from: b, to: a)
            try deliver(from: a, to: b)
        }
        try expectConverged(a, b)
        let place = try #require(a.coordinator.drawing[S.line.key]).baseTransforms
        #expect(place == [StrokeTransform(dx: 0, dy: 2)] || place == [StrokeTransform(dx: 3, dy: 5)])
        #expect(a.coordinator.drawing.count == 1)
    }

    @Test func aMoveWhileAnotherPeerDrawsElsewhereKeepsBoth() throws {
        let (a, b) = try peers()
        let other = F.group(F.stroke(at: 40, 10, key: F.key(9, peer: b.keySuffix)))
        try a.move(S.line.key, dx: 0, dy: 2)
        try b.draw(other)
        try syncBoth(a, b)
        try expectConverged(a, b)
        #expect(a.coordinator.drawing.keys == [S.line.key, other.key])
        #expect(a.coordinator.drawing[S.line.key]?.baseTransforms == [StrokeTransform(dx: 0, dy: 2)])
        #expect(a.coordinator.drawing[other.key] == other)
    }
}

extension TestPeer {
    /// Moves the stroke under `key` by whole cells, as a drag of the select tool does, and flushes.
    func move(_ key: StrokeKey, dx: Double, dy: Double) throws {
        guard let group = coordinator.drawing[key] else { return }
        clock.now += 1
        coordinator.edit([key: group.translated(dx: dx, dy: dy)], now: clock.now)
        try settle()
    }
}

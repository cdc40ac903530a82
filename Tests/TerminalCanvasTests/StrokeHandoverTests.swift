import StrokeKit
import TerminalCanvas
import Testing

@Suite struct StrokeHandoverTests {
    let key = StrokeKey(rawValue: "2026-03-25T16:20:14.127Z~3fa2c1")!
    let otherKey = StrokeKey(rawValue: "2026-03-25T16:20:15.000Z~3fa2c1")!
    let stroke = PeerStroke(cells: [CanvasCell(x: 1, y: 1), CanvasCell(x: 2, y: 1)], colour: 196)

    @Test func aFinishedStrokeStaysUntilItsCommitArrives() {
        var handover = StrokeHandover(timeoutMilliseconds: 3000)
        var committed: Set<StrokeKey> = []
        handover.peerUpdated(7, key: key, stroke: stroke, now: 0, isCommitted: committed.contains)
        #expect(handover.strokesAwaitingCommit(of: 7).isEmpty)  // still in progress: presence draws it
        // Pen up: the presence carries no stroke, the commit is not here yet.
        handover.peerUpdated(7, key: nil, stroke: nil, now: 10, isCommitted: committed.contains)
        #expect(handover.strokesAwaitingCommit(of: 7) == [stroke])
        let early = handover.settle(now: 100, isCommitted: committed.contains)
        #expect(!early)
        #expect(handover.strokesAwaitingCommit(of: 7) == [stroke])
        committed.insert(key)
        let arrived = handover.settle(now: 110, isCommitted: committed.contains)
        #expect(arrived)
        #expect(handover.strokesAwaitingCommit(of: 7).isEmpty)
        #expect(handover.nextDeadline == nil)
    }

    @Test func aStrokeWhoseCommitNeverComesGoesAfterTheTimeout() {
        var handover = StrokeHandover(timeoutMilliseconds: 3000)
        handover.peerUpdated(7, key: key, stroke: stroke, now: 0) { _ in false }
        handover.peerUpdated(7, key: nil, stroke: nil, now: 500) { _ in false }
        #expect(handover.nextDeadline == 3500)
        let beforeTimeout = handover.settle(now: 3499) { _ in false }
        #expect(!beforeTimeout)
        let atTimeout = handover.settle(now: 3500) { _ in false }
        #expect(atTimeout)
        #expect(handover.strokesAwaitingCommit(of: 7).isEmpty)
    }

    @Test func aCommitThatArrivedFirstLeavesNothingWaiting() {
        var handover = StrokeHandover()
        handover.peerUpdated(7, key: key, stroke: stroke, now: 0) { _ in true }
        handover.peerUpdated(7, key: nil, stroke: nil, now: 10) { _ in true }
        #expect(handover.peersWithStrokesAwaitingCommit.isEmpty)
    }

    /// The next stroke starts before the last one's commit arrived: both show.
    @Test func aNewStrokeStartedBeforeTheCommitKeepsTheOldOneWaiting() {
        var handover = StrokeHandover()
        let next = PeerStroke(cells: [CanvasCell(x: 5, y: 5)], colour: 33)
        handover.peerUpdated(7, key: key, stroke: stroke, now: 0) { _ in false }
        handover.peerUpdated(7, key: otherKey, stroke: next, now: 10) { _ in false }
        #expect(handover.strokesAwaitingCommit(of: 7) == [stroke])
        // The same stroke growing is not a new one.
        handover.peerUpdated(7, key: otherKey, stroke: next, now: 20) { _ in false }
        #expect(handover.strokesAwaitingCommit(of: 7) == [stroke])
    }

    @Test func aPeerThatLeavesMidStrokeKeepsItUntilTheCommitOrTimeout() {
        var handover = StrokeHandover()
        handover.peerUpdated(7, key: key, stroke: stroke, now: 0) { _ in false }
        handover.peerLeft(7, now: 5) { _ in false }
        #expect(handover.strokesAwaitingCommit(of: 7) == [stroke])
        handover.reset()
        #expect(handover.peersWithStrokesAwaitingCommit.isEmpty)
    }

    /// The canvas draws a finished stroke as it drew the stroke in progress.
    @Test func theCanvasDrawsFinishedStrokesLikeStrokesInProgress() {
        let viewport = CanvasViewport(screenWidth: 6, screenHeight: 3)
        let view = CanvasView(mode: .block)
        let inProgress = view.render(
            Drawing(), viewport: viewport,
            peers: [
                PeerPresence(
                    name: "", colour: 196, cursor: CanvasCell(x: 5, y: 0), strokeInProgress: stroke.cells)
            ])
        let finished = view.render(
            Drawing(), viewport: viewport,
            peers: [PeerPresence(name: "", colour: 196, cursor: CanvasCell(x: 5, y: 0))],
            finishedStrokes: [stroke])
        #expect(finished == inProgress)
        #expect(finished.rows[1] == " ▄▄")
    }
}

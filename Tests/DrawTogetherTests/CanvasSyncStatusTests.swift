import EventRuntime
import MonotonicTime
import ReplicaSync
import StrokeKit
import TerminalCanvas
import Testing

@testable import drawtogether

/// What the canvas says about sync: the status bar's state and the message-line notices.
@Suite struct CanvasSyncStatusTests {
    private let relay = SocketEndpoint.unix(path: "/run/drawtogether/default/0000000000000001.sock")

    private func status(
        peers: Int = 0, refusal: SyncCloseReason? = nil, dialled: Bool = true, caughtUp: Bool = true
    ) -> SyncNodeStatus {
        var status = SyncNodeStatus()
        status.peers = (0..<peers).map {
            SyncNodeStatus.Peer(peerID: UInt64($0 + 1), displayName: "test-\($0)", transport: .unixSocket)
        }
        status.isCaughtUp = caughtUp && peers > 0
        if let refusal {
            status.lastRefusal = SyncNodeStatus.Refusal(
                reason: refusal, at: SyncInstant(milliseconds: 5), peer: "test-9", dialled: dialled)
        }
        return status
    }

    private func syncStatus(_ node: SyncNodeStatus?, unflushed: Bool = false, dialsRemote: Bool = false)
        -> SyncStatus
    {
        CanvasSession.syncStatus(
            flushError: nil, node: node, hasUnflushedEdits: unflushed, dialsRemote: dialsRemote)
    }

    /// Alone is not an error: "offline" is for a configured peer or relay out of reach.
    @Test func noPeersIsAloneUnlessAPeerOrRelayIsConfigured() {
        #expect(syncStatus(status()) == .alone)
        #expect(syncStatus(nil) == .alone)
        #expect(syncStatus(status(), dialsRemote: true) == .offline)
        #expect(syncStatus(nil, dialsRemote: true) == .offline)
        #expect(syncStatus(status(peers: 1), dialsRemote: true) == .inSync)
    }

    @Test func aRefusalShowsAsAShortErrorOnlyWhileNoPeerIsConnected() {
        #expect(syncStatus(status(refusal: .authenticationFailed)) == .error(reason: "wrong token"))
        #expect(
            syncStatus(status(refusal: .remoteClosed(.databaseMismatch, "ids differ")))
                == .error(reason: "other database"))
        #expect(syncStatus(status(peers: 1, refusal: .authenticationFailed)) == .inSync)
    }

    @Test func aRefusedIncomingConnectionIsAMessageNotAStandingError() {
        // Someone dialled in with a wrong token: this peer's settings are fine; it is alone.
        #expect(syncStatus(status(refusal: .authenticationFailed, dialled: false)) == .alone)
    }

    @Test func connectedPeersAreInSyncOrSyncing() {
        #expect(syncStatus(status(peers: 1)) == .inSync)
        #expect(syncStatus(status(peers: 1), unflushed: true) == .syncing)
        #expect(syncStatus(status(peers: 1, caughtUp: false)) == .syncing)
    }

    @Test func anUnsavedEditOutranksEverything() {
        let state = CanvasSession.syncStatus(
            flushError: "disk full", node: status(peers: 1), hasUnflushedEdits: true)
        #expect(state == .error(reason: "not saved: disk full"))
    }

    @Test func aPeerThatQuitIsNoticedAsLeaving() {
        let quit = SyncNodeEvent.disconnected(
            peer: "test-2", endpoint: relay, dialled: true,
            reason: .remoteClosed(.shuttingDown, SyncCloseReason.localShutdown.message), wasEstablished: true)
        #expect(CanvasSession.notice(for: quit) == "test-2 left")
        let dropped = SyncNodeEvent.disconnected(
            peer: "test-2", endpoint: relay, dialled: false, reason: .transportClosed, wasEstablished: true)
        #expect(CanvasSession.notice(for: dropped) == "test-2 left")
    }

    @Test func aRefusalIsNoticedWithItsFullReason() {
        let refused = SyncNodeEvent.disconnected(
            peer: "relay", endpoint: relay, dialled: true, reason: .authenticationFailed,
            wasEstablished: false)
        let notice = CanvasSession.notice(for: refused)
        #expect(notice == "relay: \(UserMessage.message(for: SyncCloseReason.authenticationFailed))")
        #expect(notice?.contains("--token") == true)
    }

    @Test func connectionsThatNeverJoinedOrThatThisPeerClosedSayNothing() {
        let neverJoined = SyncNodeEvent.disconnected(
            peer: "x", endpoint: relay, dialled: true, reason: .transportClosed, wasEstablished: false)
        let ownShutdown = SyncNodeEvent.disconnected(
            peer: "test-2", endpoint: relay, dialled: true, reason: .localShutdown, wasEstablished: true)
        #expect(CanvasSession.notice(for: neverJoined) == nil)
        #expect(CanvasSession.notice(for: ownShutdown) == nil)
        #expect(CanvasSession.notice(for: .unreachable(endpoint: relay, problem: "refused")) == nil)
    }

    @Test func theStatusBarKeepsItsFieldsWhenSyncStopsWithAnError() {
        // The case a tester reported: a refusal at 80 columns squeezed everything to its left.
        let bar = StatusBarView(
            drawingName: "drawing-1", tool: .pen, colorNumber: 1, colorValue: nil, brushSize: 1,
            peersOnline: 0,
            sync: syncStatus(status(refusal: .authenticationFailed)))
        var grid = CellGrid(width: 80, height: 1)
        bar.paint(into: &grid, row: 0)
        let row = grid.rows[0]
        #expect(row.hasPrefix(" drawing-1 │ pen │ █ colour 1 │ brush 1"), "\(row)")
        #expect(row.hasSuffix("no peers │ sync error: wrong token"), "\(row)")
    }
}

import EventRuntime
import MonotonicTime
import ReplicaSync
import Testing

@testable import drawtogether

/// The rules of `sync --once` and the lines `sync`/`serve` print, without sockets.
@Suite struct SyncOnceProgressTests {
    private let relay = SocketEndpoint.tcp(host: "127.0.0.1", port: 7420)
    private let start = SyncInstant(milliseconds: 1_000)

    private func progress(targets: [[SocketEndpoint]]? = nil) -> SyncOnceProgress {
        SyncOnceProgress(
            targets: targets ?? [[relay]], timeout: .seconds(10), discovery: false, databaseID: "default",
            now: start)
    }

    private func status(peers: Int, caughtUp: Bool, pending: Int = 0) -> SyncNodeStatus {
        var status = SyncNodeStatus()
        status.peers = (0..<peers).map {
            SyncNodeStatus.Peer(peerID: UInt64($0 + 1), displayName: "relay", transport: .tcp)
        }
        status.isCaughtUp = caughtUp
        status.pendingDeltaCount = pending
        return status
    }

    private var connected: SyncNodeEvent {
        .connected(
            SyncNodeStatus.Peer(peerID: 1, displayName: "relay", transport: .tcp), endpoint: relay,
            dialled: true)
    }

    @Test func inSyncOnlyOnceCaughtUpWithNothingPendingAndEveryTargetReached() {
        var once = progress()
        #expect(once.verdict(status: status(peers: 1, caughtUp: true), now: start) == .waiting)
        once.record(connected)
        #expect(once.verdict(status: status(peers: 1, caughtUp: false), now: start) == .waiting)
        #expect(once.verdict(status: status(peers: 1, caughtUp: true, pending: 1), now: start) == .waiting)
        #expect(once.verdict(status: status(peers: 1, caughtUp: true), now: start) == .inSync(peerCount: 1))
    }

    @Test func aRefusalByADialledPeerFailsWithItsReason() {
        var once = progress()
        once.record(
            .disconnected(
                peer: "relay", endpoint: relay, dialled: true, reason: .authenticationFailed,
                wasEstablished: false))
        guard case .refused(let message) = once.verdict(status: status(peers: 0, caughtUp: false), now: start)
        else {
            Issue.record("a refusal did not fail --once")
            return
        }
        #expect(message.hasPrefix("relay refused: authentication failed"))
    }

    @Test func aStrangerRefusedOnOurListenerDoesNotFailTheRun() {
        var once = progress(targets: [])
        let listener = SocketEndpoint.tcp(host: "0.0.0.0", port: 7000)
        once.record(
            .disconnected(
                peer: "x", endpoint: listener, dialled: false, reason: .authenticationFailed,
                wasEstablished: false))
        #expect(once.verdict(status: status(peers: 0, caughtUp: false), now: start) == .waiting)
    }

    @Test func aPeerThatDropsIsWaitedForAndAGoneOneTimesOut() {
        var once = progress()
        once.record(connected)
        once.record(
            .disconnected(
                peer: "relay", endpoint: relay, dialled: true, reason: .transportClosed, wasEstablished: true)
        )
        #expect(once.verdict(status: status(peers: 0, caughtUp: false), now: start + .seconds(9)) == .waiting)
        guard
            case .failed(let message) = once.verdict(
                status: status(peers: 0, caughtUp: false), now: start + .seconds(10))
        else {
            Issue.record("no timeout")
            return
        }
        #expect(message.contains("nothing answered within 10 s: 127.0.0.1:7420 (the connection was lost)"))
    }

    @Test func anUnreachedTargetFailsAfterTheTimeoutEvenWhenAnotherAnswered() {
        let other = SocketEndpoint.tcp(host: "127.0.0.1", port: 9)
        var once = progress(targets: [[relay], [other]])
        once.record(connected)
        once.record(.unreachable(endpoint: other, problem: "connection refused"))
        let fine = status(peers: 1, caughtUp: true)
        #expect(once.verdict(status: fine, now: start + .seconds(5)) == .waiting)
        #expect(
            once.verdict(status: fine, now: start + .seconds(10))
                == .failed(
                    "no answer within 10 s from 127.0.0.1:9 (connection refused); set DRAWTOGETHER_SYNC_TIMEOUT (seconds) to wait longer"
                ))
    }

    @Test func oneRelayOfAListIsEnoughAndAnUnreachedListNamesEveryRelay() {
        let second = SocketEndpoint.tcp(host: "127.0.0.1", port: 7421)
        var once = progress(targets: [[second, relay]])
        once.record(.unreachable(endpoint: second, problem: "connection refused"))
        #expect(once.verdict(status: status(peers: 0, caughtUp: false), now: start) == .waiting)
        once.record(connected)
        #expect(once.verdict(status: status(peers: 1, caughtUp: true), now: start) == .inSync(peerCount: 1))

        var nobody = progress(targets: [[second, relay]])
        nobody.record(.unreachable(endpoint: second, problem: "connection refused"))
        guard
            case .failed(let message) = nobody.verdict(
                status: status(peers: 0, caughtUp: false), now: start + .seconds(10))
        else {
            Issue.record("no timeout")
            return
        }
        #expect(message.contains("127.0.0.1:7421 (connection refused) or 127.0.0.1:7420;"))
    }

    @Test func theLogPrintsRefusalsAndUnreachablePeersOnceAndInSyncOnTransitions() {
        var log = SyncEventLog(prefix: "drawtogether sync")
        let unreachable = SyncNodeEvent.unreachable(endpoint: relay, problem: "connection refused")
        #expect(
            log.line(for: unreachable)
                == "drawtogether sync: cannot reach 127.0.0.1:7420: connection refused; retrying")
        #expect(log.line(for: unreachable) == nil)
        #expect(
            log.line(for: connected)?.contains("connected to relay [000000] over tcp at 127.0.0.1:7420")
                == true)
        #expect(log.line(for: unreachable) != nil, "after a connection, a new failure is worth a line again")
        let refused = SyncNodeEvent.disconnected(
            peer: "relay", endpoint: relay, dialled: true,
            reason: .remoteClosed(.authenticationFailed, "wrong token"), wasEstablished: false)
        #expect(log.line(for: refused) == "drawtogether sync: relay refused: the peer refused: wrong token")
        #expect(log.line(for: status(peers: 1, caughtUp: true)) == "drawtogether sync: in sync with 1 peer")
        #expect(log.line(for: status(peers: 1, caughtUp: true)) == nil)
        #expect(log.line(for: status(peers: 2, caughtUp: false)) == nil)
        #expect(log.line(for: status(peers: 2, caughtUp: true)) == "drawtogether sync: in sync with 2 peers")
    }
}

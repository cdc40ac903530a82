import ReplicaSync
import Testing

/// How a closed connection reads: a peer going away is a departure, a peer that cannot sync as
/// configured is a refusal, and both have a wording short enough for the status bar.
@Suite struct SyncCloseReasonTests {
    static let departures: [SyncCloseReason] = [
        .localShutdown, .transportClosed, .timedOut(phase: "sync"),
        .remoteClosed(.shuttingDown, "shutting down"),
        .remoteClosed(.normal, ""), .remoteClosed(.timedOut, "the peer went quiet during sync"),
    ]
    static let refusals: [SyncCloseReason] = [
        .protocolVersionMismatch(local: 2, remote: 1), .databaseMismatch(local: "home", remote: "work"),
        .authenticationFailed, .protocolViolation(.unknownMessageType(99)),
        .unexpectedMessage("hello", phase: "sync"),
        .replicaFailed("disk full"), .remoteClosed(.authenticationFailed, "authentication failed"),
        .remoteClosed(.databaseMismatch, "database ids differ"),
        .remoteClosed(.protocolViolation, "bad frame"),
        .remoteClosed(.protocolVersionMismatch, "versions differ"),
        .remoteClosed(.replicaFailed, "disk full"),
    ]

    @Test(arguments: departures)
    func aPeerGoingAwayIsNotARefusal(reason: SyncCloseReason) {
        #expect(!reason.isRefusal)
    }

    @Test(arguments: refusals)
    func aPeerThatCannotSyncIsARefusal(reason: SyncCloseReason) {
        #expect(reason.isRefusal)
    }

    @Test(arguments: departures + refusals)
    func everyReasonHasAShortFormForTheStatusBar(reason: SyncCloseReason) {
        #expect(!reason.shortMessage.isEmpty)
        #expect(reason.shortMessage.count <= 21, "\(reason.shortMessage)")
        #expect(reason.shortMessage.count < reason.message.count)
    }

    @Test func aPeerThatQuitReadsAsQuittingNotAsAClosureByThisPeer() {
        // What the quitting side sends is what the other side shows.
        let sent = SyncCloseReason.localShutdown.message
        let received = SyncCloseReason.remoteClosed(.shuttingDown, sent)
        #expect(received.message == "the peer quit")
        #expect(received.shortMessage == "peer left")
        #expect(!received.message.contains("this peer"))
    }

    @Test func refusalsKeepTheirActionableWording() {
        #expect(SyncCloseReason.authenticationFailed.shortMessage == "wrong token")
        #expect(SyncCloseReason.remoteClosed(.authenticationFailed, "x").shortMessage == "wrong token")
        // The flag to check is the program's to name (UserMessageTests); the reason names the token.
        #expect(SyncCloseReason.authenticationFailed.message.contains("token"))
        #expect(
            SyncCloseReason.remoteClosed(.authenticationFailed, "check --token").message
                == "the peer refused: check --token")
    }
}

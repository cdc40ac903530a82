import ReplicaSync
import Testing

/// A relay tells its clients what is wrong with it (its database is unreachable), and when it is
/// over; the client's session keeps the latest word.
@Suite struct SyncSessionRelayStatusTests {
    @Test func theRelaysProblemReachesTheClientAndClearsAgain() throws {
        let network = SessionNetwork(nodeCount: 2, seed: 43)
        let link = network.connect(0, 1)
        network.runUntilQuiet()
        #expect(link.sessions[0].relayProblem == nil)
        network.drive(link, side: 1) { $0.publish(relayProblem: "database unreachable", now: $1) }
        network.runUntilQuiet()
        #expect(link.sessions[0].relayProblem == "database unreachable")
        #expect(link.sessions.allSatisfy { $0.isOpen })
        network.drive(link, side: 1) { $0.publish(relayProblem: nil, now: $1) }
        network.runUntilQuiet()
        #expect(link.sessions[0].relayProblem == nil)

        let message = SyncMessage.relayStatus("ünreachable")
        #expect(try SyncMessage(frame: message.frame()) == message)
    }
}

import ReplicaSync
import Testing

/// A replica that makes a delta durable later (the relay on PostgreSQL) holds the session's
/// acknowledgement back until it says so: the sender keeps the delta in flight meanwhile.
@Suite struct SyncSessionDeferredAckTests {
    @Test func theAckWaitsUntilTheReplicaSaysTheDeltaIsDurable() {
        let network = SessionNetwork(nodeCount: 2, seed: 41)
        network.replicas[1].defersAcknowledgements = true
        network.write(node: 0, key: "stroke", value: "ink")
        let link = network.connect(0, 1)
        network.runUntilQuiet()
        #expect(network.replicas[1].contents["drawings/drawing-1"] == ["stroke": "ink"])
        #expect(network.replicas[1].deferredTickets == [100])
        #expect(link.sessions[0].pendingDeltaCount == 1)

        // A ticket this session did not take acknowledges nothing.
        network.drive(link, side: 1) { $0.durable([7], now: $1) }
        network.runUntilQuiet()
        #expect(link.sessions[0].pendingDeltaCount == 1)

        network.drive(link, side: 1) { $0.durable([100], now: $1) }
        network.runUntilQuiet()
        #expect(link.sessions[0].pendingDeltaCount == 0)
        #expect(link.sessions.allSatisfy { $0.isOpen })

        // The next write goes out once the first is acknowledged, and waits the same way.
        network.write(node: 0, key: "second", value: "ink")
        network.drive(link, side: 0) { $0.localCommitted(now: $1) }
        network.runUntilQuiet()
        #expect(network.replicas[1].deferredTickets == [100, 101])
        #expect(link.sessions[0].pendingDeltaCount == 1)
        network.drive(link, side: 1) { $0.durable([101], now: $1) }
        network.runUntilQuiet()
        #expect(link.sessions[0].pendingDeltaCount == 0)
        #expect(network.replicas[1].contents == network.replicas[0].contents)
    }

    @Test func aDeltaTheReplicaCouldNotKeepEndsTheSessionAndStaysUnacknowledged() {
        let network = SessionNetwork(nodeCount: 2, seed: 43)
        network.replicas[1].defersAcknowledgements = true
        network.write(node: 0, key: "stroke", value: "ink")
        let link = network.connect(0, 1)
        network.runUntilQuiet()
        #expect(network.replicas[1].deferredTickets == [100])

        // A failure of a ticket this session did not take changes nothing.
        network.drive(link, side: 1) { $0.durable([], failed: [7: "disk full"], now: $1) }
        network.runUntilQuiet()
        #expect(link.sessions.allSatisfy { $0.isOpen })

        network.drive(link, side: 1) { $0.durable([], failed: [100: "disk full"], now: $1) }
        network.runUntilQuiet()
        #expect(!link.sessions[1].isOpen)
        #expect(link.reasons[1] == .replicaFailed("disk full"))
        // The sender never saw an ack: the delta is still its to resend.
        #expect(link.sessions[0].pendingDeltaCount == 1)
    }
}

import ReplicaSync
import Testing

/// A replica that reads a subscription's documents on demand (the relay on PostgreSQL) keeps the
/// session quiet about that subscription until it has them: the remote is neither told the
/// documents are empty nor sent anything for them, and both converge once they are read.
@Suite struct SyncSessionPrepareTests {
    @Test func nothingIsSentForASubscriptionUntilTheReplicaHasReadIt() {
        let network = SessionNetwork(nodeCount: 2, seed: 43)
        let drawings = SyncSubscription(collection: "drawings")
        network.replicas[1].unprepared = [drawings]
        network.write(node: 0, key: "client", value: "ink")
        network.write(node: 1, key: "relay", value: "stored")
        let link = network.connect(0, 1)
        network.runUntilQuiet()
        #expect(link.sessions.allSatisfy { $0.isEstablished })
        #expect(network.replicas[1].preparesAsked.contains(drawings))
        // The client has no answer, so it is not caught up, and it sent nothing it could not
        // know the relay lacks.
        #expect(!link.sessions[0].isCaughtUp)
        #expect(network.replicas[0].contents["drawings/drawing-1"] == ["client": "ink"])
        #expect(network.replicas[1].contents["drawings/drawing-1"] == ["relay": "stored"])
        #expect(network.replicas[1].changesComputedCount == 0)

        // A local commit meanwhile changes nothing for the subscription still being read.
        network.drive(link, side: 1) { $0.localCommitted(now: $1) }
        network.runUntilQuiet()
        #expect(network.replicas[0].contents["drawings/drawing-1"] == ["client": "ink"])

        // Read: the replica says so (through the node: `localCommitted`), and both converge.
        network.replicas[1].unprepared = []
        network.drive(link, side: 1) { $0.localCommitted(now: $1) }
        network.runUntilQuiet()
        #expect(link.sessions[0].isCaughtUp)
        #expect(network.replicas[0].contents == network.replicas[1].contents)
        #expect(network.replicas[0].contents["drawings/drawing-1"] == ["client": "ink", "relay": "stored"])
    }
}

import EventRuntime
import ReplicaCore
import ReplicaStore
import ReplicaSync
import TestSupport
import Testing

/// A relay on its SQLite replica commits what its clients send a loop turn at a time: the
/// deltas of one turn are one transaction, none is in memory (so none is sent on) or
/// acknowledged before that COMMIT, and a client that sends something malformed is refused on
/// its own while the others of its turn are kept.
@Suite struct RelayGroupCommitTests {
    private let loop = ManualEventLoop()
    private let network: InMemoryNetwork
    private let drawings = SyncSubscription(collection: "drawings")

    init() {
        network = InMemoryNetwork(loop: loop)
    }

    @Test func theDeltasOfOneTurnAreOneTransactionAndWaitForIt() throws {
        let relay = try RealStorePeer(loop: loop, transport: network, peer: 0x10, relay: true)
        let writers = try (1...3).map {
            try RealStorePeer(loop: loop, transport: network, peer: 0xA0 + UInt64($0))
        }
        for (index, writer) in writers.enumerated() {
            try writer.writeStrokes(["w\(index)"], document: "drawing-\(index % 2)")
        }
        var passes = 0
        let token = relay.replica.onCommit { if !$0.isLocal { passes += 1 } }
        var tickets: [UInt64] = []
        for writer in writers {
            let delta = try #require(
                try writer.adapter.encodedChanges(for: drawings, since: DocumentVersions().encoded()))
            let outcome = try relay.adapter.applyEncodedChanges(delta, for: drawings)
            guard case .deferred(let ticket) = outcome else {
                Issue.record("applied at once: \(outcome)")
                return
            }
            tickets.append(ticket)
        }
        #expect(Set(tickets).count == 3)
        // Not committed yet, so not in memory either: nothing of it could be sent to anyone.
        #expect(try relay.drawings().isEmpty)
        #expect(relay.adapter.commitStatistics == (0, 0))

        loop.runDueTimers()
        #expect(relay.adapter.commitStatistics == (1, 3))
        #expect(passes == 1)
        #expect(try relay.strokeCount(document: "drawing-0") == 2)
        #expect(try relay.strokeCount(document: "drawing-1") == 1)
        token.cancel()
    }

    @Test func clientsWritingAtOnceConvergeAndAMalformedOneIsRefusedAlone() throws {
        let relay = try RealStorePeer(loop: loop, transport: network, peer: 0x10, relay: true)
        let clients = try (1...4).map {
            try RealStorePeer(loop: loop, transport: network, peer: 0xA0 + UInt64($0))
        }
        let endpoint = try relay.node.listen(on: .tcp(host: "127.0.0.1", port: 0))
        for client in clients { client.node.connect(to: endpoint) }
        #expect(loop.run(until: { relay.node.status.peers.count == 4 }, timeout: .seconds(30)))

        // A client whose deltas carry an event that claims to have seen itself.
        let liar = try RealStorePeer(loop: loop, transport: network, peer: 0x66)
        let malforming = MalformingReplica(base: liar.adapter)
        let liarNode = SyncNode(
            loop: loop, transport: network, replica: malforming,
            configuration: SyncSessionConfiguration(
                databaseID: "default", peerID: 0x66, displayName: "liar", token: "team token",
                encrypts: false,
                subscriptions: [drawings]),
            random: SplitMix64(seed: 0x66))
        try liar.writeStrokes(["lie"], document: "drawing-1")
        liarNode.connect(to: endpoint)

        for round in 0..<20 {
            for (index, client) in clients.enumerated() {
                try client.writeStrokes(["c\(index)-\(round)"], document: "drawing-\(index % 2)")
            }
            loop.runOnce(maximumWait: .zero)
        }
        #expect(converge([relay] + clients, on: loop))
        #expect(try relay.strokeCount(document: "drawing-0") == 40)
        #expect(try relay.strokeCount(document: "drawing-1") == 40)
        #expect(loop.run(until: { liarNode.status.lastRefusal != nil }, timeout: .seconds(30)))
        #expect(try relay.drawings().allSatisfy { $0["strokes"]?.objectValue?["lie"] == nil })
        // Deltas were grouped: fewer transactions than deltas, and every delta acknowledged.
        let statistics = relay.adapter.commitStatistics
        #expect(statistics.transactions < statistics.deltas)
        #expect(
            loop.run(
                until: { clients.allSatisfy { $0.node.status.pendingDeltaCount == 0 } }, timeout: .seconds(30)
            ))
        liarNode.shutdown()
        for peer in [relay] + clients { peer.node.shutdown() }
    }
}

/// Wraps an adapter and makes every outgoing delta malformed: each event claims to have seen
/// itself, which no honest peer writes.
final class MalformingReplica: SyncReplica {
    let base: ReplicaSyncAdapter

    init(base: ReplicaSyncAdapter) {
        self.base = base
    }

    func encodedVersions(for subscription: SyncSubscription) throws -> [UInt8] {
        try base.encodedVersions(for: subscription)
    }

    func encodedChanges(for subscription: SyncSubscription, since remoteVersions: [UInt8]) throws -> [UInt8]?
    {
        guard let bytes = try base.encodedChanges(for: subscription, since: remoteVersions) else {
            return nil
        }
        var delta = try ReplicaDelta(decoding: bytes)
        for index in delta.documents.indices {
            for event in delta.documents[index].events.indices {
                let dot = delta.documents[index].events[event].dot
                delta.documents[index].events[event].context = VersionVector([dot.peer: dot.counter])
            }
        }
        return delta.encoded()
    }

    func applyEncodedChanges(_ delta: [UInt8], for subscription: SyncSubscription) throws -> SyncApplyOutcome
    {
        try base.applyEncodedChanges(delta, for: subscription)
    }

    func listing(of collection: String) -> [String: SyncListingEntry]? {
        base.listing(of: collection)
    }
}

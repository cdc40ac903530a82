import EventRuntime
import ReplicaSync
import TestSupport
import Testing

/// Real sockets on loopback and in temporary directories, one event loop driven by the test: the
/// node's logic is tested in virtual time (`SyncNodeTests`); these check the sockets under it.
@Suite(.serialized) struct SyncNodeSocketTests {
    private let loop: PollEventLoop

    init() throws {
        loop = try PollEventLoop(clock: .system)
    }

    private func makeNode(peer: UInt64, token: String = "team token", forwardsPresence: Bool = false)
        -> (SyncNode, InMemorySyncReplica)
    {
        makeSyncNode(
            peer: peer, loop: loop, transport: SocketTransport(loop: loop), token: token,
            forwardsPresence: forwardsPresence)
    }

    private func waitFor(_ condition: () -> Bool) -> Bool {
        loop.run(until: condition, timeout: .seconds(20))
    }

    @Test func twoNodesConvergeOverAUnixSocket() throws {
        let directory = try TemporaryDirectory()
        let (a, replicaA) = makeNode(peer: 1)
        let (b, replicaB) = makeNode(peer: 2)
        let endpoint = try a.listen(on: .unix(path: directory.path + "/a.sock"))
        b.connect(to: endpoint)
        #expect(waitFor { a.status.peers.count == 1 && b.status.peers.count == 1 })
        #expect(b.status.peers.first?.transport == .unixSocket)
        writeConcurrently(on: loop, [(a, replicaA)], count: 1000)
        // The first 100 keys of A are overwritten while B adds 100 of its own.
        writeConcurrently(on: loop, [(a, replicaA), (b, replicaB)], count: 100)
        #expect(
            waitFor {
                replicaB.contents["drawings/drawing-1"]?.count == 1100
                    && replicaA.contents == replicaB.contents
            })
        #expect(waitFor { a.status.pendingDeltaCount == 0 && b.status.isCaughtUp })
        a.shutdown()
        b.shutdown()
    }

    @Test func twoNodesConvergeOverEncryptedTCPWhileBothWrite() throws {
        let (a, replicaA) = makeNode(peer: 1)
        let (b, replicaB) = makeNode(peer: 2)
        let endpoint = try a.listen(on: .tcp(host: "127.0.0.1", port: 0))
        b.connect(to: endpoint)
        #expect(waitFor { a.status.peers.count == 1 && b.status.peers.count == 1 })
        #expect(a.status.peers.first?.transport == .tcp)
        writeConcurrently(on: loop, [(a, replicaA), (b, replicaB)], count: 500)
        #expect(
            waitFor {
                replicaA.contents["drawings/drawing-1"]?.count == 1000
                    && replicaA.contents == replicaB.contents
            })
        #expect(a.status.lastSyncAt != nil && b.status.lastRefusal == nil)
        a.shutdown()
        b.shutdown()
    }
}

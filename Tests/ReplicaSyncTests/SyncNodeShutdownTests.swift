import EventRuntime
import ReplicaSync
import TestSupport
import Testing

/// A node shut down, or let go, while a dial it started has not answered yet: the answer comes
/// later from the loop, and must find neither a live session to start nor a node that is gone.
/// The first two run in virtual time; the last needs a real TCP connect, which is in progress
/// until the loop next polls.
@Suite struct SyncNodeShutdownTests {
    private static func makeNode(peer: UInt64, loop: any EventLoop, transport: any Transport) -> SyncNode {
        makeSyncNode(peer: peer, loop: loop, transport: transport).0
    }

    @Test func aDialAnsweredAfterShutdownConnectsNobody() throws {
        let loop = ManualEventLoop()
        let network = InMemoryNetwork(loop: loop)
        let listener = Self.makeNode(peer: 1, loop: loop, transport: network)
        let dialler = Self.makeNode(peer: 2, loop: loop, transport: network)
        dialler.connect(to: try listener.listen(on: .tcp(host: "127.0.0.1", port: 0)))
        // The dial answers from the loop, after the node has said goodbye to everyone.
        dialler.shutdown()
        loop.advance(by: .seconds(10))
        #expect(dialler.status.peers.isEmpty)
        #expect(listener.status.peers.isEmpty)
        listener.shutdown()
    }

    @Test func aDialAnsweredAfterItsNodeIsGoneIsClosed() throws {
        let loop = ManualEventLoop()
        let network = InMemoryNetwork(loop: loop)
        let listener = Self.makeNode(peer: 1, loop: loop, transport: network)
        let endpoint = try listener.listen(on: .tcp(host: "127.0.0.1", port: 0))
        weak var goneDialler: SyncNode?
        do {
            let dialler = Self.makeNode(peer: 2, loop: loop, transport: network)
            dialler.connect(to: endpoint)
            dialler.shutdown()
            goneDialler = dialler
        }
        #expect(goneDialler == nil, "nothing but the test should hold a node")
        loop.advance(by: .seconds(10))
        #expect(listener.status.peers.isEmpty)
        listener.shutdown()
    }

    @Test func aConnectInProgressWhenTheLoopGoesAwayIsClosedQuietly() throws {
        let target = try ListeningSocket(binding: .tcp(host: "127.0.0.1", port: 0))
        weak var goneLoop: PollEventLoop?
        do {
            let loop = try PollEventLoop(clock: .system)
            let node = Self.makeNode(peer: 2, loop: loop, transport: SocketTransport(loop: loop))
            // A non-blocking connect on loopback TCP is in progress until the loop polls it.
            node.connect(to: target.endpoint)
            node.shutdown()
            goneLoop = loop
        }
        #expect(goneLoop == nil, "the loop should go with the node that held it")
    }
}

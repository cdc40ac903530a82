import EventRuntime
import ReplicaCore
import ReplicaStore
import ReplicaSync
import TestSupport
import Testing

/// Two and three real replicas (SQLite stores in temporary directories) syncing over real
/// connections (in memory, in virtual time: a TCP endpoint still encrypts) through
/// `ReplicaSyncAdapter`, driven by one manual-time loop on the test's thread. Nobody
/// calls `localCommitted()` by hand: local writes reach the node through the adapter.
@Suite struct RealStoreConvergenceTests {
    enum Transport: String, CaseIterable, CustomTestStringConvertible {
        case unixSocket
        case encryptedTCP
        var testDescription: String { rawValue }
    }

    private let loop = ManualEventLoop()
    private let network: InMemoryNetwork

    init() {
        network = InMemoryNetwork(loop: loop)
    }

    /// B dials A over the transport; returns once both see each other.
    private func connect(_ a: RealStorePeer, _ b: RealStorePeer, over transport: Transport) throws {
        let endpoint =
            switch transport {
            case .unixSocket: try a.node.listen(on: .unix(path: "/sockets/a.sock"))
            case .encryptedTCP: try a.node.listen(on: .tcp(host: "127.0.0.1", port: 0))
            }
        b.node.connect(to: endpoint)
        #expect(
            loop.run(
                until: { a.node.status.peers.count == 1 && b.node.status.peers.count == 1 },
                timeout: .seconds(30)))
        let expected: SyncTransport = transport == .unixSocket ? .unixSocket : .tcp
        #expect(b.node.status.peers.first?.transport == expected)
    }

    @Test(arguments: Transport.allCases)
    func aThousandStrokesWrittenOnOnePeerReachTheOther(over transport: Transport) throws {
        let a = try RealStorePeer(loop: loop, transport: network, peer: 0xA1)
        let b = try RealStorePeer(loop: loop, transport: network, peer: 0xB2)
        try connect(a, b, over: transport)
        // Ten transactions of a hundred strokes, with the loop turning between them, so some
        // arrive while a delta is in flight and are batched behind its ack.
        for batch in 0..<10 {
            try a.writeStrokes((0..<100).map { "2026-03-25T16:20:\(batch).\($0)~a1" })
            loop.runOnce(maximumWait: .zero)
        }
        #expect(converge([a, b], on: loop))
        #expect(try b.strokeCount() == 1000)
        #expect(b.adapter.refusedDeltaCount == 0)
        a.node.shutdown()
        b.node.shutdown()
    }

    @Test(arguments: Transport.allCases)
    func twoPeersWritingAtOnceBothKeepEverything(over transport: Transport) throws {
        let a = try RealStorePeer(loop: loop, transport: network, peer: 0xA1)
        let b = try RealStorePeer(loop: loop, transport: network, peer: 0xB2)
        try connect(a, b, over: transport)
        for index in 0..<300 {
            try a.writeStrokes(["a-\(index)"])
            try b.writeStrokes(["b-\(index)"])
            // Both also overwrite one shared stroke: last writer wins, the same on both sides.
            try a.writeStrokes(["shared"], value: { _ in "a \(index)" })
            try b.writeStrokes(["shared"], value: { _ in "b \(index)" })
            if index % 20 == 0 { loop.runOnce(maximumWait: .zero) }
        }
        #expect(converge([a, b], on: loop))
        #expect(try a.strokeCount() == 601)
        a.node.shutdown()
        b.node.shutdown()
    }

    @Test func twoClientsThatOnlySeeTheRelayConvergeThroughIt() throws {
        let relay = try RealStorePeer(loop: loop, transport: network, peer: 0x10, relay: true)
        let a = try RealStorePeer(loop: loop, transport: network, peer: 0xA1)
        let b = try RealStorePeer(loop: loop, transport: network, peer: 0xB2)
        let endpoint = try relay.node.listen(on: .tcp(host: "127.0.0.1", port: 0))
        a.node.connect(to: endpoint)
        b.node.connect(to: endpoint)
        #expect(loop.run(until: { relay.node.status.peers.count == 2 }, timeout: .seconds(30)))
        for batch in 0..<5 {
            try a.writeStrokes((0..<100).map { "a-\(batch)-\($0)" })
            try b.writeStrokes((0..<100).map { "b-\(batch)-\($0)" }, document: "sketch-\(batch)")
            loop.runOnce(maximumWait: .zero)
        }
        #expect(converge([a, b, relay], on: loop))
        #expect(try a.strokeCount() == 500 && b.strokeCount(document: "sketch-4") == 100)
        #expect(a.node.status.peers.map(\.peerID) == [0x10] && b.node.status.peers.map(\.peerID) == [0x10])
        for peer in [relay, a, b] { peer.node.shutdown() }
    }
}

import EventRuntime
import ReplicaCore
import ReplicaStore
import ReplicaSync
import TestSupport
import Testing

/// Three real replicas in a triangle of links, each link a proxy the test cuts and restores on a
/// seeded schedule while every peer keeps writing; once every link is back, all converge. On an
/// in-memory network in virtual time.
@Suite struct RealStorePartitionTests {
    @Test(arguments: [UInt64(7), 2024])
    func peersWritingThroughRandomPartitionsConvergeAfterHealing(seed: UInt64) throws {
        let loop = ManualEventLoop()
        let network = InMemoryNetwork(loop: loop)
        var random = SplitMix64(seed: seed)
        let peers = try [0xA1, 0xB2, 0xC3].map {
            try RealStorePeer(loop: loop, transport: network, peer: UInt64($0))
        }
        var ports: [UInt16] = []
        for peer in peers {
            guard case .tcp(_, let port) = try peer.node.listen(on: .tcp(host: "127.0.0.1", port: 0)) else {
                return
            }
            ports.append(port)
        }
        // Each link: the lower-numbered peer dials the other through a proxy.
        let links = [(0, 1), (1, 2), (0, 2)]
        let proxies = try links.map { dialler, target in
            let proxy = try RealStoreLinkProxy(network: network, forwardingTo: ports[target])
            peers[dialler].node.connect(to: .tcp(host: "127.0.0.1", port: proxy.port))
            return proxy
        }
        #expect(
            loop.run(until: { peers.allSatisfy { $0.node.status.peers.count == 2 } }, timeout: .seconds(30)))

        let steps = 16
        var cuts = 0
        for step in 0..<steps {
            for (index, peer) in peers.enumerated() {
                try peer.writeStrokes((0..<5).map { "p\(index)-s\(step)-\($0)" })
                try peer.writeStrokes(["shared"], value: { _ in "peer \(index) step \(step)" })
            }
            let proxy = proxies[Int(random.next() % UInt64(proxies.count))]
            if proxy.isCut {
                proxy.restore()
            } else {
                proxy.cut()
                cuts += 1
            }
            for _ in 0..<Int(random.next() % 20 + 1) { loop.runOnce(maximumWait: .milliseconds(5)) }
        }
        #expect(cuts >= 2, "the seeded schedule should cut links while peers write")
        proxies.forEach { $0.restore() }
        let expected = 3 * steps * 5 + 1
        #expect(
            converge(peers, on: loop, extra: { peers.allSatisfy { (try? $0.strokeCount()) == expected } }))
        for peer in peers {
            #expect(try peer.strokeCount() == expected)
            peer.node.shutdown()
        }
    }
}

import EventRuntime
import ReplicaSync
import TestSupport
import Testing

/// A node's relaying, redialling and refusals, over an in-memory network on a manual-time loop
/// (a TCP endpoint still encrypts): no sockets, and no real time spent waiting.
@Suite struct SyncNodeTests {
    private let loop = ManualEventLoop()
    private let network: InMemoryNetwork

    init() {
        network = InMemoryNetwork(loop: loop)
    }

    private func makeNode(peer: UInt64, token: String = "team token", forwardsPresence: Bool = false)
        -> (SyncNode, InMemorySyncReplica)
    {
        makeSyncNode(
            peer: peer, loop: loop, transport: network, token: token, forwardsPresence: forwardsPresence)
    }

    private func waitFor(_ condition: () -> Bool) -> Bool {
        loop.run(until: condition, timeout: .seconds(20))
    }

    @Test func threeNodesSyncThroughARelayTheyAloneKnow() throws {
        let (relay, relayReplica) = makeNode(peer: 10, forwardsPresence: true)
        let (a, replicaA) = makeNode(peer: 1)
        let (b, replicaB) = makeNode(peer: 2)
        let endpoint = try relay.listen(on: .tcp(host: "127.0.0.1", port: 0))
        a.connect(to: endpoint)
        b.connect(to: endpoint)
        #expect(
            waitFor {
                relay.status.peers.count == 2 && a.status.peers.count == 1 && b.status.peers.count == 1
            })
        writeConcurrently(on: loop, [(a, replicaA), (b, replicaB)], count: 200)
        #expect(
            waitFor {
                replicaA.contents["drawings/drawing-1"]?.count == 400
                    && replicaA.contents == replicaB.contents
                    && relayReplica.contents == replicaA.contents
            })
        var seen: [PresenceUpdate] = []
        b.onPresence = { seen.append($0) }
        let cursor = PresenceUpdate(
            peerID: 1, displayName: "peer 1", drawingID: "drawing-1", cursor: .init(x: 3, y: 4), tool: "pen",
            colour: 2)
        a.publish(presence: cursor)
        #expect(waitFor { seen.last == cursor })
        relay.shutdown()
        a.shutdown()
        b.shutdown()
    }

    @Test func aDroppedPeerIsRedialledAndResumes() throws {
        let path = "/sockets/a.sock"
        let (a, replicaA) = makeNode(peer: 1)
        let (b, replicaB) = makeNode(peer: 2)
        try a.listen(on: .unix(path: path))
        b.connect(to: .unix(path: path))
        writeConcurrently(on: loop, [(a, replicaA)], count: 10)
        #expect(waitFor { replicaB.contents["drawings/drawing-1"]?.count == 10 })
        a.shutdown()
        #expect(waitFor { b.status.peers.isEmpty })
        let (a2, _) = makeNode(peer: 3)
        try a2.listen(on: .unix(path: path))
        #expect(waitFor { b.status.peers.map(\.peerID) == [3] })
        a2.shutdown()
        b.shutdown()
    }

    @Test(arguments: [
        ("garbage", Array("GET / HTTP/1.1\r\nHost: drawtogether\r\n\r\n".utf8), false),
        ("four GiB length prefix", [0xFF, 0xFF, 0xFF, 0xFF, 1, 1, 2, 3], false),
        ("truncated frame", [0, 0, 1, 0, 1, 1, 0, 7], true),
    ])
    func hostileBytesCloseOnlyTheirOwnConnection(name: String, bytes: [UInt8], endsStream: Bool) throws {
        let (relay, relayReplica) = makeNode(peer: 10)
        let (good, goodReplica) = makeNode(peer: 1)
        let endpoint = try relay.listen(on: .tcp(host: "127.0.0.1", port: 0))
        good.connect(to: endpoint)
        #expect(waitFor { relay.status.peers.count == 1 })
        guard case .tcp(_, let port) = endpoint else { return }
        let hostile = try network.connect(to: .tcp(host: "127.0.0.1", port: port)).get()
        hostile.write(bytes)
        if endsStream { hostile.finishSending() }
        #expect(waitFor { hostile.isClosed }, "\(name): the node did not close the hostile connection")
        guard case .protocolViolation? = relay.status.lastRefusal?.reason else {
            Issue.record("\(name): refusal was \(String(describing: relay.status.lastRefusal))")
            return
        }
        if !endsStream {
            guard case .goodbye(.protocolViolation, let text)? = hostile.goodbye else {
                Issue.record("\(name): no goodbye sent")
                return
            }
            #expect(text.contains("protocol error"))
        }
        goodReplica.write(document: "drawing-1", key: "after", value: name)
        good.localCommitted()
        #expect(waitFor { relayReplica.contents == goodReplica.contents && !goodReplica.contents.isEmpty })
        #expect(relay.status.peers.map(\.peerID) == [1])
        relay.shutdown()
        good.shutdown()
    }

    @Test func aWrongTokenIsRefusedOnBothSidesWhileAGoodPeerKeepsSyncing() throws {
        let (relay, relayReplica) = makeNode(peer: 10)
        let (good, goodReplica) = makeNode(peer: 1)
        let (intruder, intruderReplica) = makeNode(peer: 66, token: "guessed")
        relayReplica.write(document: "drawing-1", key: "private", value: "x")
        let endpoint = try relay.listen(on: .tcp(host: "127.0.0.1", port: 0))
        good.connect(to: endpoint)
        intruder.connect(to: endpoint)
        #expect(waitFor { intruder.status.lastRefusal != nil && relay.status.lastRefusal != nil })
        #expect(relay.status.lastRefusal?.reason == .authenticationFailed)
        #expect(intruder.status.lastRefusal?.reason.message.contains("token") == true)
        #expect(waitFor { goodReplica.contents == relayReplica.contents })
        #expect(intruderReplica.contents.isEmpty)
        #expect(relay.status.peers.map(\.peerID) == [1])
        relay.shutdown()
        good.shutdown()
        intruder.shutdown()
    }
}

import EventRuntime
import MonotonicTime
import TestSupport
import Testing

@testable import ReplicaSync

/// A client given several relays (`connect(toFirstOf:)`) keeps one connection, to the first that
/// answers; when it loses that relay it moves on to the next with the reconnect backoff and
/// resumes from version vectors, so what it wrote arrives on the relay it moved to.
@Suite struct SyncNodeFailoverTests {
    private let loop = ManualEventLoop()

    @Test func aClientThatLosesItsRelayMovesToTheNextAndItsWritesArriveThere() throws {
        let network = InMemoryNetwork(loop: loop)
        var (relayA, replicaA) = makeSyncNode(
            peer: 10, loop: loop, transport: network, forwardsPresence: true)
        let (relayB, replicaB) = makeSyncNode(
            peer: 11, loop: loop, transport: network, forwardsPresence: true)
        let endpointA = try relayA.listen(on: .tcp(host: "127.0.0.1", port: 0))
        let endpointB = try relayB.listen(on: .tcp(host: "127.0.0.1", port: 0))
        let (client, clientReplica) = makeSyncNode(peer: 1, loop: loop, transport: network)
        client.connect(toFirstOf: [endpointA, endpointB])
        #expect(loop.run(until: { client.status.isCaughtUp }, timeout: .seconds(5)))
        #expect(client.status.peers.map(\.dialled) == [endpointA])

        for index in 0..<10 { clientReplica.write(document: "drawing-1", key: "before-\(index)", value: "v") }
        client.localCommitted()
        #expect(loop.run(until: { replicaA.contents == clientReplica.contents }, timeout: .seconds(5)))
        #expect(replicaB.contents.isEmpty, "the client keeps one relay, not both")

        relayA.shutdown()
        let lostAt = loop.now
        #expect(loop.run(until: { client.status.peers.first?.dialled == endpointB }, timeout: .seconds(5)))
        // The session with A made progress, so the backoff starts again from its minimum.
        #expect(loop.now.since(lostAt) <= .milliseconds(200), "moved after \(loop.now.since(lostAt))")
        for index in 0..<10 { clientReplica.write(document: "drawing-1", key: "after-\(index)", value: "v") }
        client.localCommitted()
        #expect(loop.run(until: { replicaB.contents == clientReplica.contents }, timeout: .seconds(5)))
        #expect(replicaB.contents["drawings/drawing-1"]?.count == 20)

        // B goes too, and A is back (a new process on the same address): round the list to A,
        // which gets what the client wrote on B.
        relayB.shutdown()
        (relayA, replicaA) = makeSyncNode(peer: 12, loop: loop, transport: network, forwardsPresence: true)
        try relayA.listen(on: endpointA)
        #expect(loop.run(until: { replicaA.contents == clientReplica.contents }, timeout: .seconds(10)))
        #expect(client.status.peers.map(\.dialled) == [endpointA])
        client.shutdown()
        relayA.shutdown()
    }

    @Test func aListWhoseFirstRelayIsDownUsesTheSecond() throws {
        let network = InMemoryNetwork(loop: loop)
        let (relay, relayReplica) = makeSyncNode(peer: 10, loop: loop, transport: network)
        let endpoint = try relay.listen(on: .tcp(host: "127.0.0.1", port: 0))
        let down = SocketEndpoint.tcp(host: "127.0.0.1", port: 9)
        relayReplica.write(document: "drawing-1", key: "k", value: "from the relay")
        let (client, clientReplica) = makeSyncNode(peer: 1, loop: loop, transport: network)
        var unreachable: [SocketEndpoint] = []
        client.onEvent = { event in
            if case .unreachable(let endpoint, _) = event { unreachable.append(endpoint) }
        }
        client.connect(toFirstOf: [down, endpoint])
        #expect(loop.run(until: { clientReplica.contents == relayReplica.contents }, timeout: .seconds(5)))
        #expect(unreachable == [down])
        #expect(client.status.peers.map(\.dialled) == [endpoint])
        client.shutdown()
        relay.shutdown()
    }

    @Test func withEveryRelayDownTheClientGoesRoundTheListBackingOff() throws {
        let network = InMemoryNetwork(loop: loop)
        let first = SocketEndpoint.tcp(host: "127.0.0.1", port: 9)
        let second = SocketEndpoint.tcp(host: "127.0.0.1", port: 10)
        let (client, _) = makeSyncNode(peer: 1, loop: loop, transport: network)
        var attempts: [(SocketEndpoint, SyncInstant)] = []
        client.onEvent = { event in
            if case .unreachable(let endpoint, _) = event { attempts.append((endpoint, loop.now)) }
        }
        client.connect(toFirstOf: [first, second])
        loop.run(until: { false }, timeout: .seconds(10))
        #expect(attempts.count >= 6 && attempts.count <= 12, "\(attempts.count) attempts in 10 s")
        for (index, attempt) in attempts.enumerated() {
            #expect(attempt.0 == (index % 2 == 0 ? first : second))
        }
        // The delays grow: the last gap is longer than the first.
        let gaps = zip(attempts.dropFirst(), attempts).map { $0.1.since($1.1) }
        #expect(gaps.last! > gaps.first!)
        client.shutdown()
    }
}

import EventRuntime
import ReplicaSync
import TestSupport
import Testing

/// A peer that quits is a departure on the other side, over any transport, never a refusal the
/// status bar would show as an error; a real refusal still is one, until a connection succeeds.
/// Over an in-memory network in virtual time (a TCP endpoint still encrypts).
@Suite(.serialized) struct SyncNodeDepartureTests {
    private let loop = ManualEventLoop()
    private let network: InMemoryNetwork

    init() {
        network = InMemoryNetwork(loop: loop)
    }

    /// What one node reported through `onEvent`.
    private final class Events {
        var all: [SyncNodeEvent] = []

        var disconnections: [SyncCloseReason] {
            all.compactMap { event in
                if case .disconnected(_, _, _, let reason, _) = event { return reason }
                return nil
            }
        }
    }

    private func makeNode(peer: UInt64, token: String = "team token") -> (SyncNode, Events) {
        let (node, _) = makeSyncNode(peer: peer, loop: loop, transport: network, token: token)
        let events = Events()
        node.onEvent = { events.all.append($0) }
        return (node, events)
    }

    private func waitFor(_ condition: () -> Bool) -> Bool {
        loop.run(until: condition, timeout: .seconds(20))
    }

    private func endpoint(_ transport: SyncTransport) -> SocketEndpoint {
        transport == .tcp ? .tcp(host: "127.0.0.1", port: 0) : .unix(path: "/sockets/a.sock")
    }

    @Test(arguments: [SyncTransport.unixSocket, .tcp])
    func whenTheListenerQuitsTheDiallerIsOfflineWithoutAnError(transport: SyncTransport) throws {
        let (a, _) = makeNode(peer: 1)
        let (b, seenByB) = makeNode(peer: 2)
        b.connect(to: try a.listen(on: endpoint(transport)))
        #expect(waitFor { a.status.peers.count == 1 && b.status.peers.count == 1 })
        a.shutdown()
        #expect(waitFor { !seenByB.disconnections.isEmpty && b.status.peers.isEmpty })
        #expect(seenByB.disconnections.allSatisfy { !$0.isRefusal }, "\(seenByB.disconnections)")
        #expect(b.status.lastRefusal == nil)
        // B keeps redialling the listener that is gone: unreachable, still not refused.
        #expect(
            waitFor {
                seenByB.all.contains { if case .unreachable = $0 { true } else { false } }
            })
        #expect(b.status.lastRefusal == nil)
        b.shutdown()
    }

    @Test(arguments: [SyncTransport.unixSocket, .tcp])
    func whenTheDiallerQuitsTheListenerIsOfflineWithoutAnError(transport: SyncTransport) throws {
        let (a, seenByA) = makeNode(peer: 1)
        let (b, _) = makeNode(peer: 2)
        b.connect(to: try a.listen(on: endpoint(transport)))
        #expect(waitFor { a.status.peers.count == 1 && b.status.peers.count == 1 })
        b.shutdown()
        #expect(waitFor { !seenByA.disconnections.isEmpty && a.status.peers.isEmpty })
        #expect(
            seenByA.disconnections == [.remoteClosed(.shuttingDown, SyncCloseReason.localShutdown.message)])
        #expect(a.status.lastRefusal == nil)
        a.shutdown()
    }

    @Test func aWrongTokenIsStillARefusalUntilAPeerGetsThrough() throws {
        let (a, seenByA) = makeNode(peer: 1)
        let (intruder, _) = makeNode(peer: 3, token: "guessed")
        let (b, _) = makeNode(peer: 2)
        let endpoint = try a.listen(on: .tcp(host: "127.0.0.1", port: 0))
        intruder.connect(to: endpoint)
        #expect(waitFor { a.status.lastRefusal != nil && intruder.status.lastRefusal != nil })
        #expect(a.status.lastRefusal?.reason == .authenticationFailed)
        #expect(intruder.status.lastRefusal?.reason.shortMessage == "wrong token")
        // Which side dialled: the intruder keeps redialling, A only answered.
        #expect(intruder.status.lastRefusal?.dialled == true && a.status.lastRefusal?.dialled == false)
        #expect(seenByA.disconnections.contains { $0.isRefusal })
        intruder.shutdown()
        // A peer with the right token connects: the old refusal no longer says where sync stands.
        b.connect(to: endpoint)
        #expect(waitFor { a.status.peers.count == 1 })
        #expect(a.status.lastRefusal == nil)
        a.shutdown()
        b.shutdown()
    }
}

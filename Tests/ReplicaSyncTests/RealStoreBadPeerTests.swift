import EventRuntime
import ReplicaCore
import ReplicaStore
import ReplicaSync
import TestSupport
import Testing

/// Hostile and mistaken peers against a node holding a real store: each is refused on its own
/// connection, with a reason, learns nothing, and a good peer keeps syncing throughout. Over an
/// in-memory network in virtual time; the hostile peer is the test's own end of a connection.
@Suite struct RealStoreBadPeerTests {
    private let loop = ManualEventLoop()
    private let network: InMemoryNetwork

    init() {
        network = InMemoryNetwork(loop: loop)
    }

    /// A relay with a real store and a good client that is already in sync with it.
    private func relayWithGoodClient() throws -> (relay: RealStorePeer, good: RealStorePeer, port: UInt16) {
        let relay = try RealStorePeer(loop: loop, transport: network, peer: 0x10, relay: true)
        let good = try RealStorePeer(loop: loop, transport: network, peer: 0xA1)
        try relay.writeStrokes(["private-1", "private-2"], document: "secret-plans")
        guard case .tcp(_, let port) = try relay.node.listen(on: .tcp(host: "127.0.0.1", port: 0)) else {
            throw SocketError(operation: "listening", code: 0)
        }
        good.node.connect(to: .tcp(host: "127.0.0.1", port: port))
        #expect(converge([relay, good], on: loop))
        return (relay, good, port)
    }

    /// The good client writes; the relay must get it while (or after) the bad peer was refused.
    private func expectGoodClientStillSyncs(_ relay: RealStorePeer, _ good: RealStorePeer, marker: String)
        throws
    {
        try good.writeStrokes([marker])
        #expect(converge([relay, good], on: loop))
        #expect(
            try relay.drawings().first { $0["_id"] == .string("drawing-1") }?["strokes"]?.objectValue?[marker]
                != nil)
        #expect(relay.node.status.peers.map(\.peerID) == [0xA1])
    }

    @Test func aPeerWithTheWrongTokenIsRefusedAndLearnsNothing() throws {
        let (relay, good, port) = try relayWithGoodClient()
        let intruder = try RealStorePeer(loop: loop, transport: network, peer: 0x66, token: "guessed")
        try intruder.writeStrokes(["planted"], document: "graffiti")
        let intruderBefore = try intruder.drawings()
        intruder.node.connect(to: .tcp(host: "127.0.0.1", port: port))
        #expect(
            loop.run(
                until: { intruder.node.status.lastRefusal != nil && relay.node.status.lastRefusal != nil },
                timeout: .seconds(30)))
        #expect(relay.node.status.lastRefusal?.reason == .authenticationFailed)
        #expect(intruder.node.status.lastRefusal?.reason.message.contains("token") == true)
        try expectGoodClientStillSyncs(relay, good, marker: "after-intruder")
        // Neither side's replica took anything from the other.
        #expect(try intruder.drawings() == intruderBefore)
        #expect(try relay.drawings().contains { $0["_id"] == .string("graffiti") } == false)
        intruder.node.shutdown()
        relay.node.shutdown()
        good.node.shutdown()
    }

    @Test(arguments: [
        ("random garbage", [UInt8](repeating: 0, count: 0), false),
        ("four GiB length prefix", [0xFF, 0xFF, 0xFF, 0xFF, 1, 1, 2, 3], false),
        ("truncated frame", [0, 0, 1, 0, 1, 1, 0, 7], true),
    ])
    func hostileBytesCloseOnlyTheirOwnConnectionWithAReason(name: String, bytes: [UInt8], endsStream: Bool)
        throws
    {
        let (relay, good, port) = try relayWithGoodClient()
        var generator = SplitMix64(seed: 0xBAD)
        // The garbage case is 4 KiB of seeded random bytes whose length prefix fits the limit
        // only by chance; whatever it decodes to, it must be refused.
        let payload =
            bytes.isEmpty ? (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) } : bytes
        let versionsBefore = try relay.replica.versions(collection: "drawings", documentID: nil)
        let hostile = try network.connect(to: .tcp(host: "127.0.0.1", port: port)).get()
        hostile.write(payload)
        if endsStream { hostile.finishSending() }
        #expect(
            loop.run(until: { hostile.isClosed }, timeout: .seconds(30)),
            "\(name): the hostile connection stayed open")
        guard let refusal = relay.node.status.lastRefusal?.reason else {
            Issue.record("\(name): the relay recorded no reason")
            return
        }
        #expect(refusal.isRefusal, "\(name): \(refusal.message)")
        if !endsStream {
            guard case .goodbye(_, let text)? = hostile.goodbye else {
                Issue.record("\(name): no goodbye with a reason was sent")
                return
            }
            #expect(!text.isEmpty)
        }
        #expect(try relay.replica.versions(collection: "drawings", documentID: nil) == versionsBefore)
        try expectGoodClientStillSyncs(relay, good, marker: "after-\(name)")
        relay.node.shutdown()
        good.node.shutdown()
    }
}

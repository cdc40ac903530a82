import EventRuntime
import MonotonicTime
import TestSupport
import Testing

@testable import ReplicaSync

/// What a stranger with nothing but a TCP connection can make a listening node spend before it
/// has proven the token: hand-made bytes on real loopback sockets.
@Suite(.serialized) struct PreAuthLimitTests {
    private let loop: PollEventLoop

    init() throws {
        loop = try PollEventLoop(clock: .system)
    }

    private func waitFor(_ condition: () -> Bool) -> Bool {
        loop.run(until: condition, timeout: .seconds(20))
    }

    private func listeningNode(
        options: (inout SyncNode.Options) -> Void = { _ in }
    ) throws -> (SyncNode, InMemorySyncReplica, UInt16, Events) {
        let replica = InMemorySyncReplica(peerID: 10)
        var settings = SyncNode.Options()
        options(&settings)
        let node = SyncNode(
            loop: loop, transport: SocketTransport(loop: loop), replica: replica,
            configuration: SessionNetwork.configuration(peer: 10, token: "team token"), options: settings,
            random: SplitMix64(seed: 10))
        let events = Events()
        node.onEvent = { events.all.append($0) }
        guard case .tcp(_, let port) = try node.listen(on: .tcp(host: "127.0.0.1", port: 0)) else {
            throw RawTCPClientError(code: 0)
        }
        return (node, replica, port, events)
    }

    final class Events {
        var all: [SyncNodeEvent] = []
        var handshakeFailures: [(SocketEndpoint, SyncCloseReason, Int)] {
            all.compactMap {
                if case .handshakeFailed(let address, let reason, let count) = $0 {
                    (address, reason, count)
                } else {
                    nil
                }
            }
        }
    }

    private func goodbye(in bytes: [UInt8]) -> SyncMessage? {
        var decoder = FrameDecoder()
        decoder.append(bytes)
        return (try? decoder.nextFrame()).flatMap { $0 }.flatMap { try? SyncMessage(frame: $0) }
    }

    @Test func aStrangersBigFrameIsRefusedFromItsLengthPrefixAlone() throws {
        let (node, _, port, events) = try listeningNode()
        let stranger = try RawTCPClient(port: port)
        // 16 MiB minus one announced, 4 KiB of it sent: under the old limit the node buffered it
        // all for the 10 s handshake.
        var bytes: [UInt8] = [0x00, 0xFF, 0xFF, 0xFF, SyncMessage.protocolVersion, 1]
        bytes += [UInt8](repeating: 0x41, count: 4096)
        stranger.send(bytes)
        #expect(waitFor { stranger.pollClosed() })
        guard case .goodbye(.protocolViolation, let text)? = goodbye(in: stranger.received) else {
            Issue.record("got \(stranger.received.prefix(64))")
            return
        }
        #expect(text.contains("more than the limit of 4096 bytes"))
        // The failure is logged with the stranger's address.
        #expect(waitFor { !events.handshakeFailures.isEmpty })
        guard case .tcp("127.0.0.1", let remotePort)? = events.handshakeFailures.first?.0 else {
            Issue.record("logged \(events.all)")
            return
        }
        #expect(remotePort != port)
        node.shutdown()
    }

    @Test func handshakesBeyondTheLimitAreClosedAtOnceAndAGoodPeerGetsInAfterwards() throws {
        let (node, replica, port, events) = try listeningNode { options in
            options.maxPendingHandshakes = 4
            options.maxPendingHandshakesPerHost = 100
        }
        replica.write(document: "drawing-1", key: "k", value: "v")
        var idle = try (0..<4).map { _ in try RawTCPClient(port: port) }
        #expect(waitFor { node.connections.count == 4 })
        let fifth = try RawTCPClient(port: port)
        // Closed without a word and without a session.
        #expect(waitFor { fifth.pollClosed() })
        #expect(fifth.received.isEmpty)
        #expect(node.connections.count == 4)
        #expect(
            events.handshakeFailures.contains {
                if case .tooManyHandshakes(4) = $0.1 { true } else { false }
            })
        // The idle ones go away; a peer with the token syncs.
        idle.removeAll()
        let (good, goodReplica) = makeSyncNode(
            peer: 1, loop: loop, transport: SocketTransport(loop: loop), token: "team token")
        #expect(waitFor { node.connections.isEmpty })
        good.connect(to: .tcp(host: "127.0.0.1", port: port))
        #expect(waitFor { goodReplica.contents == replica.contents })
        good.shutdown()
        node.shutdown()
    }

    @Test func refusalsTheRateLimitHeldBackAreLoggedWithTheirCountWhenTheIntervalEnds() throws {
        let (node, _, port, events) = try listeningNode { options in
            options.maxPendingHandshakes = 2
            options.maxPendingHandshakesPerHost = 100
            options.throttle.logInterval = .milliseconds(300)
        }
        let idle = try (0..<2).map { _ in try RawTCPClient(port: port) }
        try withExtendedLifetime(idle) {
            #expect(waitFor { node.connections.count == 2 })
            // Four more in a burst, then silence: the first is logged at once, the other three
            // are held back by the rate limit and then told in one line with their count.
            let burst = try (0..<4).map { _ in try RawTCPClient(port: port) }
            #expect(waitFor { burst.allSatisfy { $0.pollClosed() } })
            #expect(waitFor { events.handshakeFailures.count == 2 })
            #expect(events.handshakeFailures.map(\.2) == [1, 3])
        }
        node.shutdown()
    }

    @Test func oneHostGetsAtMostEightHandshakesAtOnce() throws {
        let (node, _, port, _) = try listeningNode()
        let idle = try (0..<8).map { _ in try RawTCPClient(port: port) }
        withExtendedLifetime(idle) {
            #expect(waitFor { node.connections.count == 8 })
            let ninth = try? RawTCPClient(port: port)
            #expect(waitFor { ninth?.pollClosed() ?? false })
            #expect(node.connections.count == 8)
        }
        node.shutdown()
    }

    @Test func repeatedWrongGuessesFromOneHostAreMadeToWait() throws {
        let (node, _, port, events) = try listeningNode { options in
            options.throttle.freeFailures = 1
            options.throttle.initialDelay = .seconds(30)
        }
        // Three wrong guesses, each a full CPace run by a real node with the wrong token.
        for attempt in 0..<3 {
            let (intruder, _) = makeSyncNode(
                peer: 66 + UInt64(attempt), loop: loop, transport: SocketTransport(loop: loop),
                token: "guess \(attempt)")
            intruder.connect(to: .tcp(host: "127.0.0.1", port: port))
            #expect(waitFor { intruder.status.lastRefusal != nil })
            if attempt < 2 {
                #expect(intruder.status.lastRefusal?.reason.shortMessage == "wrong token")
                #expect(waitFor { node.throttle.failures(of: "127.0.0.1") == attempt + 1 })
            } else {
                // The third is turned away before any guess: told to wait, with no share to test.
                guard case .remoteClosed(.throttled, let text)? = intruder.status.lastRefusal?.reason else {
                    Issue.record("third attempt: \(String(describing: intruder.status.lastRefusal))")
                    return
                }
                #expect(text.contains("try again in"))
            }
            intruder.shutdown()
        }
        #expect(node.throttle.failures(of: "127.0.0.1") == 2)
        // The first failure was logged with its reason; the next two fell in the same 10 s.
        #expect(events.handshakeFailures.count == 1)
        #expect(events.handshakeFailures.first?.1 == .authenticationFailed)
        node.shutdown()
    }

    @Test func afterAuthenticationFramesUpToTheFullLimitPass() {
        let network = SessionNetwork(nodeCount: 2, seed: 31)
        let link = network.connect(0, 1)
        network.runUntilQuiet()
        #expect(link.sessions.allSatisfy { $0.isEstablished })
        let stroke = (0..<20_000).map { PresenceUpdate.Point(x: Int32($0), y: 0) }
        let update = PresenceUpdate(
            peerID: 1, displayName: "peer 1", drawingID: "drawing-1", cursor: .init(x: 0, y: 0), tool: "pen",
            colour: 1, strokeInProgress: stroke)
        network.drive(link, side: 0) { $0.publish(presence: update, now: $1) }
        network.runUntilQuiet()
        // 160 KB in one frame, 40 times the limit before authentication.
        #expect(link.presence[1][1]?.strokeInProgress.count == 20_000)
        #expect(link.sessions.allSatisfy { $0.isOpen })
    }
}

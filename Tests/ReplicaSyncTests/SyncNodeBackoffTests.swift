import EventRuntime
import MonotonicTime
import TestSupport
import Testing

@testable import ReplicaSync

/// A peer whose sessions keep ending without progress backs off for real: getting through the
/// handshake no longer resets the delay, so a client whose replica cannot store what arrives (a
/// full disk) does not make the relay resend the same delta many times a second.
@Suite struct SyncNodeBackoffTests {
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "database or disk is full" }
    }

    @Test func aClientThatCannotStoreWhatArrivesBacksOffAndTheRelayResendsRarely() throws {
        let loop = ManualEventLoop()
        let network = InMemoryNetwork(loop: loop)
        let (relay, relayReplica) = makeSyncNode(peer: 10, loop: loop, transport: network)
        let (client, clientReplica) = makeSyncNode(peer: 1, loop: loop, transport: network)
        for index in 0..<50 { relayReplica.write(document: "drawing-1", key: "k\(index)", value: "v") }
        clientReplica.applyFailure = DiskFull()
        var sessions = 0
        var reasons: [SyncCloseReason] = []
        client.onEvent = { event in
            if case .disconnected(_, _, _, let reason, let wasEstablished) = event, wasEstablished {
                sessions += 1
                reasons.append(reason)
            }
        }
        client.connect(to: try relay.listen(on: .tcp(host: "127.0.0.1", port: 0)))
        loop.run(until: { false }, timeout: .seconds(60))
        // Before: the backoff reset at every handshake, a session every 50-100 ms (hundreds a
        // minute). Now: 100 ms doubling, and past two fruitless sessions up to 60 s.
        #expect(sessions >= 3 && sessions <= 12, "\(sessions) sessions in 60 s")
        #expect(relayReplica.changesComputedCount <= sessions + 1)
        print(
            "backoff: \(sessions) sessions and \(relayReplica.changesComputedCount) deltas in 60 s of a full disk"
        )
        // Each ended as the local replica's failure, not as the relay's refusal.
        #expect(reasons.allSatisfy { $0 == .replicaFailed("database or disk is full") })
        // Space is freed: the next attempt syncs, and a session that made progress resets the delay.
        clientReplica.applyFailure = nil
        #expect(loop.run(until: { clientReplica.contents == relayReplica.contents }, timeout: .seconds(120)))
        relay.shutdown()
        client.shutdown()
    }

    @Test func onlyASessionThatMadeProgressResetsTheDelay() {
        var backoff = ReconnectBackoff()
        var generator = SplitMix64(seed: 3)
        var ceilings: [Int64] = []
        for _ in 0..<10 {
            backoff.sessionEnded(madeProgress: false)
            ceilings.append(backoff.nextDelay(using: &generator).wholeMilliseconds)
        }
        // Doubling from 100 ms, past 5 s once sessions keep failing.
        #expect(ceilings.last! > 5_000 && ceilings.last! <= 60_000)
        backoff.sessionEnded(madeProgress: true)
        #expect(backoff.nextDelay(using: &generator) <= .milliseconds(100))
    }
}

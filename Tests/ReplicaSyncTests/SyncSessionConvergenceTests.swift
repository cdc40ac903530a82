import MonotonicTime
import ReplicaSync
import TestSupport
import Testing

@Suite struct SyncSessionConvergenceTests {
    @Test(arguments: [false, true])
    func twoReplicasExchangeWritesMadeBeforeAndAfterConnecting(encrypted: Bool) {
        let network = SessionNetwork(nodeCount: 2, seed: 1)
        network.write(node: 0, key: "a", value: "from 0")
        network.write(node: 1, document: "drawing-2", key: "b", value: "from 1")
        let link = network.connect(0, 1) { a, b in
            a.encrypts = encrypted
            b.encrypts = encrypted
        }
        network.runUntilQuiet()
        #expect(link.sessions.allSatisfy { $0.isEstablished && $0.isCaughtUp })
        network.write(node: 1, key: "c", value: "later")
        network.runUntilQuiet()
        #expect(network.replicas[0].contents == network.replicas[1].contents)
        #expect(network.replicas[0].contents["drawings/drawing-1"] == ["a": "from 0", "c": "later"])
        #expect(link.sessions.allSatisfy { $0.pendingDeltaCount == 0 })
    }

    @Test func concurrentWritesToOneKeyEndWithTheSameWinnerEverywhere() {
        let network = SessionNetwork(nodeCount: 2, seed: 2)
        network.connect(0, 1)
        network.runUntilQuiet()
        network.write(node: 0, key: "k", value: "zero")
        network.write(node: 1, key: "k", value: "one")
        network.runUntilQuiet()
        #expect(network.replicas[0].contents == network.replicas[1].contents)
        #expect(network.replicas[0].contents["drawings/drawing-1"]?["k"] != nil)
    }

    /// Random writes interleaved with random delivery over a line (0–1–2, where 1 relays) and a
    /// triangle, with frames duplicated and swapped; every seed must converge.
    @Test(arguments: [(UInt64(11), false), (12, false), (13, true), (14, true), (15, false)])
    func threeReplicasConvergeDespiteDuplicatedAndReorderedFrames(seed: UInt64, triangle: Bool) {
        let network = SessionNetwork(nodeCount: 3, seed: seed)
        network.duplicatesAndReorders = true
        network.connect(0, 1)
        network.connect(1, 2)
        if triangle { network.connect(2, 0) }
        var generator = SplitMix64(seed: seed &* 31)
        for step in 0..<300 {
            if Int.random(in: 0..<3, using: &generator) == 0 {
                let node = Int.random(in: 0..<3, using: &generator)
                let document = "drawing-\(Int.random(in: 1...3, using: &generator))"
                let key = "key-\(Int.random(in: 0..<20, using: &generator))"
                network.write(node: node, document: document, key: key, value: "\(node)@\(step)")
            } else {
                _ = network.deliverOne()
            }
        }
        network.runUntilQuiet()
        #expect(network.replicas[0].contents == network.replicas[1].contents)
        #expect(network.replicas[1].contents == network.replicas[2].contents)
        #expect(!network.replicas[0].contents.isEmpty)
        #expect(network.links.allSatisfy { $0.reasons == [nil, nil] })
    }

    @Test func reconnectingResumesFromVersionsInsteadOfResendingEverything() {
        let network = SessionNetwork(nodeCount: 2, seed: 3)
        for index in 0..<50 { network.write(node: 0, key: "old-\(index)", value: "\(index)") }
        let first = network.connect(0, 1)
        network.runUntilQuiet()
        #expect(network.replicas[1].receivedEntryCount == 50)
        _ = first.sessions[0].shutdown(now: network.now)
        first.closed = [true, true]
        for index in 0..<3 { network.write(node: 0, key: "new-\(index)", value: "\(index)") }
        network.connect(0, 1)
        network.runUntilQuiet()
        #expect(network.replicas[1].receivedEntryCount == 53)
        #expect(network.replicas[0].contents == network.replicas[1].contents)
    }

    @Test func aThousandWritesArriveAsFewDeltasWhileOneIsInFlight() {
        let network = SessionNetwork(nodeCount: 2, seed: 4)
        network.connect(0, 1)
        network.runUntilQuiet()
        for index in 0..<1000 {
            network.write(node: 0, key: "k\(index)", value: "\(index)")
            if index % 100 == 0 { network.runUntilQuiet() }
        }
        network.runUntilQuiet()
        #expect(network.replicas[1].contents == network.replicas[0].contents)
        #expect(network.replicas[1].appliedDeltaCount < 100)
    }
}

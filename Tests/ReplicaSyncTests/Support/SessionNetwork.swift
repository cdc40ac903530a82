import MonotonicTime
import ReplicaSync
import TestSupport

/// Replicas joined by in-memory connections. Frames wait in per-direction queues and are
/// delivered in a seeded random order, in random chunks, optionally duplicated and reordered once
/// the handshake is behind them. A replica that applied a remote delta tells its other sessions
/// `localCommitted`, as a node (or relay) does.
final class SessionNetwork {
    /// One connection: two sessions and what each has sent the other.
    final class Link {
        var sessions: [SyncSession]
        let nodes: [Int]
        var queues: [[[UInt8]]] = [[], []]
        var closed: [Bool] = [false, false]
        var reasons: [SyncCloseReason?] = [nil, nil]
        var presence: [[UInt64: PresenceUpdate]] = [[:], [:]]
        /// Every byte each side sent, to check what crossed the wire.
        var sentBytes: [[UInt8]] = [[], []]

        init(sessions: [SyncSession], nodes: [Int]) {
            self.sessions = sessions
            self.nodes = nodes
        }
    }

    let replicas: [InMemorySyncReplica]
    private(set) var links: [Link] = []
    var generator: SplitMix64
    var now = SyncInstant(milliseconds: 1_000)
    var duplicatesAndReorders = false

    init(nodeCount: Int, seed: UInt64) {
        replicas = (0..<nodeCount).map { InMemorySyncReplica(peerID: UInt64($0 + 1)) }
        generator = SplitMix64(seed: seed)
    }

    static func configuration(
        peer: UInt64, token: String = "shared secret", databaseID: String = "default", encrypts: Bool = false
    ) -> SyncSessionConfiguration {
        SyncSessionConfiguration(
            databaseID: databaseID, peerID: peer, displayName: "peer \(peer)", token: token,
            encrypts: encrypts,
            subscriptions: [SyncSubscription(collection: "drawings")])
    }

    @discardableResult
    func connect(
        _ a: Int, _ b: Int,
        configure: (inout SyncSessionConfiguration, inout SyncSessionConfiguration) -> Void = { _, _ in }
    ) -> Link {
        var configurationA = Self.configuration(peer: replicas[a].peerID)
        var configurationB = Self.configuration(peer: replicas[b].peerID)
        configure(&configurationA, &configurationB)
        let sessions = [
            SyncSession(
                configuration: configurationA, role: .initiator, replica: replicas[a],
                secrets: HandshakeSecrets(using: &generator), now: now),
            SyncSession(
                configuration: configurationB, role: .acceptor, replica: replicas[b],
                secrets: HandshakeSecrets(using: &generator), now: now),
        ]
        let link = Link(sessions: sessions, nodes: [a, b])
        links.append(link)
        for side in 0..<2 { handle(link.sessions[side].start(now: now), link: link, side: side) }
        return link
    }

    func write(node: Int, document: String = "drawing-1", key: String, value: String) {
        replicas[node].write(document: document, key: key, value: value)
        committed(node: node, except: nil)
    }

    /// Hands raw bytes to one side, as if the other side had sent them.
    func inject(_ bytes: [UInt8], into link: Link, side: Int) {
        handle(link.sessions[side].receive(bytes, now: now), link: link, side: side)
    }

    /// Runs one event on one side and carries out its actions, as a node would (e.g. a relay
    /// forwarding presence); returns the actions for the test to inspect.
    @discardableResult
    func drive(_ link: Link, side: Int, _ event: (inout SyncSession, SyncInstant) -> [SyncAction])
        -> [SyncAction]
    {
        let actions = event(&link.sessions[side], now)
        handle(actions, link: link, side: side)
        return actions
    }

    func tick(by duration: Duration) {
        now = now + duration
        for link in links {
            for side in 0..<2 { handle(link.sessions[side].tick(now: now), link: link, side: side) }
        }
    }

    /// Delivers frames until none is left; returns how many were delivered.
    @discardableResult
    func runUntilQuiet(maxSteps: Int = 100_000) -> Int {
        var steps = 0
        while steps < maxSteps, deliverOne() { steps += 1 }
        return steps
    }

    /// Delivers one queued frame (or an end of stream); false when nothing is pending.
    @discardableResult
    func deliverOne() -> Bool {
        var candidates: [(Link, Int)] = []
        for link in links {
            for side in 0..<2
            where !link.queues[side].isEmpty || (link.closed[1 - side] && !link.closed[side]) {
                candidates.append((link, side))
            }
        }
        guard let (link, side) = candidates.randomElement(using: &generator) else { return false }
        guard !link.queues[side].isEmpty else {
            link.closed[side] = true
            handle(link.sessions[side].transportClosed(), link: link, side: side)
            return true
        }
        var index = 0
        if duplicatesAndReorders, link.queues[side].count > 1, Self.isReplication(link.queues[side][0]),
            Self.isReplication(link.queues[side][1]), Bool.random(using: &generator)
        {
            index = 1
        }
        let frame = link.queues[side].remove(at: index)
        if duplicatesAndReorders, Self.isReplication(frame), Int.random(in: 0..<10, using: &generator) == 0 {
            link.queues[side].append(frame)
        }
        var offset = 0
        while offset < frame.count, !link.closed[side] {
            let end = min(frame.count, offset + Int.random(in: 1...max(1, frame.count), using: &generator))
            handle(link.sessions[side].receive(frame[offset..<end], now: now), link: link, side: side)
            offset = end
        }
        return true
    }

    /// Unencrypted frames that may be duplicated or swapped without breaking the stream:
    /// subscribe, versions, delta, ack, presence, keepalive.
    private static func isReplication(_ frame: [UInt8]) -> Bool {
        frame.count >= 6 && (4...9).contains(frame[5])
    }

    private func committed(node: Int, except excluded: Link?) {
        for link in links where link !== excluded {
            for side in 0..<2 where link.nodes[side] == node && !link.closed[side] {
                handle(link.sessions[side].localCommitted(now: now), link: link, side: side)
            }
        }
    }

    private func handle(_ actions: [SyncAction], link: Link, side: Int) {
        for action in actions {
            switch action {
            case .send(let bytes):
                link.sentBytes[side] += bytes
                if !link.closed[1 - side] { link.queues[1 - side].append(bytes) }
            case .established, .listingChanged:
                break
            case .replicaChanged:
                committed(node: link.nodes[side], except: link)
            case .deliverPresence(let update):
                link.presence[side][update.peerID] = update
            case .presenceExpired(let peerID):
                link.presence[side][peerID] = nil
            case .close(let reason):
                link.reasons[side] = reason
                link.closed[side] = true
            }
        }
    }
}

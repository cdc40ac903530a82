import EventRuntime
import ReplicaSync

/// Turns node events into the one-line messages `sync` and `serve` print on standard error:
/// connections (with the remote's address), refusals with their reason, strangers' failed
/// handshakes (rate-limited by the node, with a count), unreachable peers (once until they
/// answer), and "in sync" whenever every connected peer has caught up. Every line is escaped
/// (`DisplayText`): names and reasons come from peers.
struct SyncEventLog {
    let prefix: String
    private var reportedUnreachable: Set<SocketEndpoint> = []
    private var wasInSync = false

    init(prefix: String) {
        self.prefix = prefix
    }

    /// The line for an event, or nil when it is not worth a line.
    mutating func line(for event: SyncNodeEvent) -> String? {
        text(for: event).map { DisplayText.escaped("\(prefix): \($0)") }
    }

    private mutating func text(for event: SyncNodeEvent) -> String? {
        switch event {
        case .connected(let peer, let endpoint, let dialled):
            reportedUnreachable.remove(endpoint)
            let via = dialled ? "at \(endpoint)" : "on \(endpoint)"
            let from = !dialled ? peer.address.map { " from \($0)" } ?? "" : ""
            return
                "connected to \(peer.displayName) [\(PeerIDText.short(peer.peerID))] over \(peer.transport.rawValue) \(via)\(from)"
        case .disconnected(let peer, _, let dialled, let reason, let wasEstablished):
            // A stranger's failed handshake comes as `.handshakeFailed`, rate-limited.
            guard dialled || wasEstablished else { return nil }
            if reason.isRefusal { return UserMessage.ending(with: peer, reason) }
            guard wasEstablished, reason != .localShutdown else { return nil }
            return "disconnected from \(peer): \(UserMessage.message(for: reason))"
        case .handshakeFailed(let address, let reason, let count):
            return Self.handshakeFailure(address: address, reason: reason, count: count)
        case .acceptingPaused(let endpoint, let problem):
            return Self.acceptingPaused(endpoint: endpoint, problem: problem)
        case .unreachable(let endpoint, let problem):
            guard reportedUnreachable.insert(endpoint).inserted else { return nil }
            return "cannot reach \(endpoint): \(problem); retrying"
        }
    }

    static func handshakeFailure(address: SocketEndpoint, reason: SyncCloseReason, count: Int) -> String {
        let times = count > 1 ? " (\(count) times since the last line)" : ""
        return "handshake from \(address) failed\(times): \(UserMessage.message(for: reason))"
    }

    static func acceptingPaused(endpoint: SocketEndpoint, problem: String?) -> String {
        guard let problem else { return "accepting on \(endpoint) again" }
        return "stopped accepting on \(endpoint) until a descriptor is free: \(problem)"
    }

    /// "in sync" when every connected peer has just caught up, nil otherwise.
    mutating func line(for status: SyncNodeStatus) -> String? {
        let inSync = status.isInSync
        defer { wasInSync = inSync }
        guard inSync, !wasInSync else { return nil }
        let count = status.peers.count
        return "\(prefix): in sync with \(count) peer\(count == 1 ? "" : "s")"
    }
}

/// Peer ids as the logs print them: the first six hex digits, like ReplicaStore's `shortHex`.
enum PeerIDText {
    static func short(_ peerID: UInt64) -> String {
        let hex = String(peerID, radix: 16)
        return String((String(repeating: "0", count: 16 - hex.count) + hex).prefix(6))
    }
}

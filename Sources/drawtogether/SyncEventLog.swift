import EventRuntime
import ReplicaSync

/// Turns node events into the one-line messages `sync` and `serve` print on standard error:
/// connections, refusals with their reason, unreachable peers (once until they answer), and
/// "in sync" whenever every connected peer has caught up.
struct SyncEventLog {
    let prefix: String
    private var reportedUnreachable: Set<SocketEndpoint> = []
    private var wasInSync = false

    init(prefix: String) {
        self.prefix = prefix
    }

    /// The line for an event, or nil when it is not worth a line.
    mutating func line(for event: SyncNodeEvent) -> String? {
        switch event {
        case .connected(let peer, let endpoint, let dialled):
            reportedUnreachable.remove(endpoint)
            let via = dialled ? "at \(endpoint)" : "on \(endpoint)"
            return
                "\(prefix): connected to \(peer.displayName) [\(PeerIDText.short(peer.peerID))] over \(peer.transport.rawValue) \(via)"
        case .disconnected(let peer, _, _, let reason, let wasEstablished):
            if reason.isRefusal { return "\(prefix): \(peer) refused: \(UserMessage.message(for: reason))" }
            guard wasEstablished, reason != .localShutdown else { return nil }
            return "\(prefix): disconnected from \(peer): \(UserMessage.message(for: reason))"
        case .unreachable(let endpoint, let problem):
            guard reportedUnreachable.insert(endpoint).inserted else { return nil }
            return "\(prefix): cannot reach \(endpoint): \(problem); retrying"
        }
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

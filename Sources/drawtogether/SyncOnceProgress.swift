import EventRuntime
import MonotonicTime
import ReplicaSync

/// Decides when `drawtogether sync --once` is done, from the node's events and status; pure, so
/// the rules are tested without sockets.
///
/// - In sync: at least one peer is connected, every connection is past the handshake, has
///   received everything its peer had for our subscriptions and has nothing of ours
///   unacknowledged, and every target has been reached: each `--peer`, and one of the
///   `--server` relays (they are alternatives: the node keeps one of them).
/// - Failed: a peer this process dialled refused (wrong token, other database, other protocol
///   version, a broken peer); or no peer was connected for `timeout` (from the start, or since the
///   last one dropped); or some target was still not reached `timeout` after the start.
struct SyncOnceProgress {
    enum Verdict: Equatable {
        case waiting
        case inSync(peerCount: Int)
        case failed(String)
        /// A dialled peer refused; the event log has printed why (`SyncEventLog`), so the run
        /// fails without saying it again.
        case refused(String)
    }

    /// What must be reached: each entry is a list of alternatives, of which one will do.
    let targets: [[SocketEndpoint]]
    let timeout: Duration
    let discovery: Bool
    let databaseID: String
    private let startedAt: SyncInstant
    private var lastPeerSeenAt: SyncInstant
    private var reached: Set<SocketEndpoint> = []
    private var problems: [SocketEndpoint: String] = [:]
    private var refusal: String?

    init(
        targets: [[SocketEndpoint]], timeout: Duration, discovery: Bool, databaseID: String, now: SyncInstant
    ) {
        self.targets = targets
        self.timeout = timeout
        self.discovery = discovery
        self.databaseID = databaseID
        startedAt = now
        lastPeerSeenAt = now
    }

    mutating func record(_ event: SyncNodeEvent) {
        switch event {
        case .connected(_, let endpoint, let dialled):
            if dialled { reached.insert(endpoint) }
        case .disconnected(let peer, let endpoint, let dialled, let reason, _):
            if dialled, reason.isRefusal, refusal == nil {
                refusal = UserMessage.ending(with: peer, reason)
            } else if dialled {
                problems[endpoint] = UserMessage.message(for: reason)
            }
        case .unreachable(let endpoint, let problem):
            problems[endpoint] = problem
        case .handshakeFailed, .acceptingPaused:
            break
        }
    }

    mutating func verdict(status: SyncNodeStatus, now: SyncInstant) -> Verdict {
        if let refusal { return .refused(refusal) }
        if !status.peers.isEmpty { lastPeerSeenAt = now }
        let unreached = targets.filter { $0.allSatisfy { !reached.contains($0) } }
        if status.isInSync, unreached.isEmpty {
            return .inSync(peerCount: status.peers.count)
        }
        let seconds = timeout.wholeMilliseconds / 1000
        let advice = "; set DRAWTOGETHER_SYNC_TIMEOUT (seconds) to wait longer"
        if status.peers.isEmpty, now.since(lastPeerSeenAt) >= timeout {
            let sought = unreached.isEmpty ? targets : unreached
            if sought.isEmpty {
                let local =
                    discovery
                    ? "no other instance of database '\(databaseID)' answered on this machine"
                    : "no peer connected"
                return .failed("\(local) within \(seconds) s" + advice)
            }
            return .failed("nothing answered within \(seconds) s: " + describe(sought) + advice)
        }
        if !unreached.isEmpty, now.since(startedAt) >= timeout {
            return .failed("no answer within \(seconds) s from " + describe(unreached) + advice)
        }
        return .waiting
    }

    private func describe(_ targets: [[SocketEndpoint]]) -> String {
        targets.map { alternatives in
            alternatives.map { endpoint in
                problems[endpoint].map { "\(endpoint) (\($0))" } ?? "\(endpoint)"
            }.joined(separator: " or ")
        }.joined(separator: ", ")
    }
}

import ReplicaSync

/// The session's side of sync: presence in and out, and status changes worth a redraw.
extension CanvasSession {
    func attach(sync node: SyncNode) {
        sync = node
        node.onPresence = { [unowned self] update in
            guard update.peerID != replica.peerID.rawValue else { return }
            // Someone reached through a relay: the connection events name only the relay.
            if peers[update.peerID] == nil, !isConnectedDirectly(update.peerID) {
                show("\(update.displayName) joined")
            }
            peers[update.peerID] = update
            setNeedsRender()
        }
        node.onPresenceExpired = { [unowned self] peerID in
            if let gone = peers[peerID], !isConnectedDirectly(peerID) { show("\(gone.displayName) left") }
            peers[peerID] = nil
            setNeedsRender()
        }
        node.onEvent = { [unowned self] event in
            if let notice = Self.notice(for: event) { show(notice) }
            setNeedsRender()
        }
        node.onReplicaChanged = { [unowned self] in setNeedsRender() }
        publishPresence()
    }

    /// Whether a peer is one of this node's own connections (its joining and leaving are then
    /// said by the connection events), rather than someone reached through a relay.
    func isConnectedDirectly(_ peerID: UInt64) -> Bool {
        sync?.status.peers.contains { $0.peerID == peerID } ?? false
    }

    /// The message-line notice for a sync event: who joined, who left, and a refusal with its
    /// full reason (the status bar keeps only a few words of it).
    static func notice(for event: SyncNodeEvent) -> String? {
        switch event {
        case .connected(let peer, _, _):
            return "\(peer.displayName) joined"
        case .disconnected(let peer, _, let dialled, let reason, let wasEstablished):
            // A stranger's failed handshake is told by `.handshakeFailed`, rate-limited.
            guard dialled || wasEstablished else { return nil }
            if reason.isRefusal { return "\(peer): \(UserMessage.message(for: reason))" }
            // A peer that never got through the handshake never joined, so it cannot leave.
            return wasEstablished && reason != .localShutdown ? "\(peer) left" : nil
        case .handshakeFailed(let address, let reason, let count):
            return SyncEventLog.handshakeFailure(address: address, reason: reason, count: count)
        case .acceptingPaused(let endpoint, let problem):
            return SyncEventLog.acceptingPaused(endpoint: endpoint, problem: problem)
        case .unreachable:
            return nil
        }
    }
}

import ReplicaSync

/// The session's side of sync: presence in and out, and status changes worth a redraw.
extension CanvasSession {
    func attach(sync node: SyncNode) {
        sync = node
        node.onPresence = { [unowned self] update in
            guard update.peerID != replica.peerID.rawValue else { return }
            peers[update.peerID] = update
            setNeedsRender()
        }
        node.onPresenceExpired = { [unowned self] peerID in
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

    /// The message-line notice for a sync event: who joined, who left, and a refusal with its
    /// full reason (the status bar keeps only a few words of it).
    static func notice(for event: SyncNodeEvent) -> String? {
        switch event {
        case .connected(let peer, _, _):
            return "\(peer.displayName) joined"
        case .disconnected(let peer, _, _, let reason, let wasEstablished):
            if reason.isRefusal { return "\(peer): \(reason.message)" }
            // A peer that never got through the handshake never joined, so it cannot leave.
            return wasEstablished && reason != .localShutdown ? "\(peer) left" : nil
        case .unreachable:
            return nil
        }
    }
}

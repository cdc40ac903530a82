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
            switch event {
            case .connected(let peer, _, _):
                show("\(peer.displayName) joined")
            case .disconnected(let peer, _, _, let reason, let wasEstablished):
                if SyncNodeEvent.isRefusal(reason) {
                    show("\(peer): \(reason.message)")
                } else if wasEstablished {
                    show("\(peer) left")
                }
            case .unreachable:
                break
            }
            setNeedsRender()
        }
        node.onReplicaChanged = { [unowned self] in setNeedsRender() }
        publishPresence()
    }
}

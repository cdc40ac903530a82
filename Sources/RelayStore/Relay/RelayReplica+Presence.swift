import EventRuntime
import MonotonicTime
import ReplicaCore
import ReplicaSync

/// Presence across relays, through the database's presence channel, coalesced.
extension RelayReplica {
    /// Passes a client's presence (or its departure) to the other relays, at most once per
    /// 50 ms per peer. While the database is away presence is dropped: it is ephemeral.
    public func publishPresence(_ change: PresenceNotice.Change) {
        let peerID = PresenceNotice(relayPeerID: 0, change: change).peerID
        if let ready = coalescer.offer(change, peerID: peerID, now: loop.now) { sendPresence([ready]) }
        armPresenceTimer()
    }

    func armPresenceTimer() {
        guard presenceTimer == nil, let deadline = coalescer.nextDeadline else { return }
        presenceTimer = loop.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            presenceTimer = nil
            sendPresence(coalescer.due(now: loop.now).map(\.change))
            armPresenceTimer()
        }
    }

    func sendPresence(_ changes: [PresenceNotice.Change]) {
        guard let store, !changes.isEmpty else { return }
        let relay = cache.peerID.rawValue
        store.notifyPresence(changes.map { PresenceNotice(relayPeerID: relay, change: $0).payload }) { _ in }
    }

    func presenceArrived(_ payload: String) {
        guard let notice = PresenceNotice(payload: payload), notice.relayPeerID != cache.peerID.rawValue
        else { return }
        onRemotePresence(notice.change)
    }
}

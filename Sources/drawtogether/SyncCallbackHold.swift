import ReplicaSync

/// What a sync node reports between its start and the moment a canvas session takes its
/// callbacks: kept in order, then handed to the session's (`replay`). The app starts syncing
/// before the session exists so that `open NAME` can look the name up in a relay's listing;
/// a peer's presence or a notice in that time still reaches the screen.
final class SyncCallbackHold {
    private var held: [(SyncNode) -> Void] = []

    init(_ node: SyncNode) {
        node.onPresence = { [unowned self] update in held.append { $0.onPresence(update) } }
        node.onPresenceExpired = { [unowned self] peerID in held.append { $0.onPresenceExpired(peerID) } }
        node.onEvent = { [unowned self] event in held.append { $0.onEvent(event) } }
        node.onListingChanged = { [unowned self] in held.append { $0.onListingChanged() } }
        node.onReplicaChanged = { [unowned self] in held.append { $0.onReplicaChanged() } }
    }

    /// Calls the node's callbacks (set anew since) with what was held, in order.
    func replay(on node: SyncNode) {
        let calls = held
        held = []
        for call in calls { call(node) }
    }
}

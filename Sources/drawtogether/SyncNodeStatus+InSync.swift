import ReplicaSync

/// The questions the front ends ask of a sync status before saying "in sync" or letting go.
extension SyncNodeStatus {
    /// Every connected peer has caught up and nothing is waiting to go out (false with no peers,
    /// since `isCaughtUp` is).
    var isInSync: Bool { isCaughtUp && pendingDeltaCount == 0 }

    /// Nobody is owed anything: no peer is connected, or every one has it all. What quitting and
    /// suspending wait for.
    var peersHaveEverything: Bool { peers.isEmpty || isInSync }
}

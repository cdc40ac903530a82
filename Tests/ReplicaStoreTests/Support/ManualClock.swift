import ReplicaStore

/// A wall clock the test moves by hand.
final class ManualClock {
    var now: Int64

    init(_ now: Int64 = 1_000) {
        self.now = now
    }

    func configuration(peer: UInt64? = nil) -> ReplicaConfiguration {
        ReplicaConfiguration(wallClock: { self.now }, peerID: peer.map(PeerID.init))
    }
}

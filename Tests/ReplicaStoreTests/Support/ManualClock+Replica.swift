import ReplicaCore
import ReplicaStore
import TestSupport

extension ManualClock {
    /// A replica configuration that reads this clock, with a fixed peer when given one.
    func configuration(peer: UInt64? = nil) -> ReplicaConfiguration {
        ReplicaConfiguration(wallClock: { self.now }, peerID: peer.map(PeerID.init))
    }
}

import EventRuntime
import ReplicaSync
import TestSupport

/// A node on `loop` and `transport` holding a fresh in-memory replica, configured as the node
/// tests share it (`SessionNetwork.configuration`, "team token", seeded by its peer id).
func makeSyncNode(
    peer: UInt64, loop: any EventLoop, transport: any Transport, token: String = "team token",
    forwardsPresence: Bool = false, configure: (inout SyncSessionConfiguration) -> Void = { _ in }
) -> (SyncNode, InMemorySyncReplica) {
    let replica = InMemorySyncReplica(peerID: peer)
    var configuration = SessionNetwork.configuration(peer: peer, token: token)
    configure(&configuration)
    var options = SyncNode.Options()
    options.forwardsPresence = forwardsPresence
    let node = SyncNode(
        loop: loop, transport: transport, replica: replica, configuration: configuration, options: options,
        random: SplitMix64(seed: peer))
    return (node, replica)
}

/// Each side writes `count` keys to "drawing-1" in turn, committing each, with a loop turn every
/// 25 rounds so the writes interleave with the sync.
func writeConcurrently(on loop: some TestLoop, _ sides: [(SyncNode, InMemorySyncReplica)], count: Int) {
    for index in 0..<count {
        for (side, (node, replica)) in sides.enumerated() {
            replica.write(document: "drawing-1", key: "\(side)-\(index)", value: "\(index)")
            node.localCommitted()
        }
        if index % 25 == 0 { loop.runOnce(maximumWait: .zero) }
    }
}

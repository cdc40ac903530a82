import DrawingSync
import ReplicaCore
import ReplicaStore
import StrokeKit
import TestSupport

/// A real replica on disk in its own temporary directory, with a manual clock and a fixed peer.
final class TestPeer {
    let directory: TemporaryDirectory
    let clock = ManualClock(StrokeFixtures.baseMilliseconds)
    let replica: Replica
    let drawingID: String
    let coordinator: DrawingSyncCoordinator
    var remoteChanges: [DrawingSyncCoordinator.RemoteChange] = []

    init(peer: UInt64, drawingID: String = "drawing-1", quietPeriod: Int64 = 100) throws {
        directory = try TemporaryDirectory(prefix: "drawingsync")
        let clock = self.clock
        replica = try Replica(
            directory: directory.path,
            configuration: ReplicaConfiguration(wallClock: { clock.now }, peerID: PeerID(peer)))
        self.drawingID = drawingID
        try DrawingList(replica: replica).create(id: drawingID, name: "Test drawing")
        coordinator = DrawingSyncCoordinator(replica: replica, drawingID: drawingID, quietPeriod: quietPeriod)
        coordinator.onRemoteChange = { [unowned self] change in remoteChanges.append(change) }
    }

    /// Draws groups locally, lets the quiet period pass and flushes.
    func draw(_ groups: StrokeGroup...) throws {
        coordinator.edit(Dictionary(uniqueKeysWithValues: groups.map { ($0.key, $0) }), now: clock.now)
        try settle()
    }

    func erase(_ keys: StrokeKey...) throws {
        coordinator.edit(
            Dictionary(uniqueKeysWithValues: keys.map { ($0, StrokeGroup?.none) }), now: clock.now)
        try settle()
    }

    /// Moves the clock past the quiet period and ticks.
    func settle() throws {
        clock.now += 150
        try coordinator.tick(now: clock.now)
    }

    /// The `strokes` map as the replica holds it.
    func storedStrokes() throws -> [String: DocumentValue] {
        let result = try replica.execute(
            "SELECT * FROM drawings WHERE _id = :id", arguments: ["id": .string(drawingID)])
        return result.documents.first?["strokes"]?.objectValue ?? [:]
    }
}

/// Ships what `to` lacks from `from`, as sync does: version vectors one way, a delta back.
func deliver(from: TestPeer, to: TestPeer) throws {
    let since = try to.replica.versions(collection: "drawings", documentID: nil)
    let delta = try from.replica.changes(collection: "drawings", documentID: nil, since: since)
    _ = try to.replica.apply(delta)
}

/// Both directions until neither lacks anything.
func syncBoth(_ a: TestPeer, _ b: TestPeer) throws {
    try deliver(from: a, to: b)
    try deliver(from: b, to: a)
}

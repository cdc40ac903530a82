import ReplicaSync
import Testing

/// A replica that keeps every event (one conforming with these defaults, as the in-memory one)
/// never sends a whole state and refuses one with a reason the session closes with, rather than
/// taking it as a delta (events the sender dropped would stay live there).
@Suite struct SyncReplicaFullStateDefaultsTests {
    @Test func aReplicaThatKeepsEveryEventSendsNoWholeStateAndRefusesOne() throws {
        let replica: any SyncReplica = InMemorySyncReplica(peerID: 1)
        let drawings = SyncSubscription(collection: "drawings")
        #expect(try replica.encodedFullState(for: drawings, since: []) == nil)
        #expect(throws: SyncReplicaError.fullStateNotSupported) {
            _ = try replica.applyEncodedFullState([1, 2, 3], for: drawings)
        }
        #expect(
            SyncCloseReason.replicaFailed("\(SyncReplicaError.fullStateNotSupported)").message.contains(
                "cannot take a compacted drawing's whole state"))
    }
}

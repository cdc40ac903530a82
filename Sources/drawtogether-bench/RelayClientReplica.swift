import ReplicaCore
import ReplicaSync

/// The replica of one simulated client of the relay figure: ReplicaCore's CRDT state in memory
/// (no SQLite, so a thousand of them fit in the driver and the driver's disk is not what is
/// measured), subscribed to one drawing. Versions and deltas are the real encodings, so the relay
/// cannot tell it from the app. Tells `onStrokes` the stroke keys each applied delta brought.
final class RelayClientReplica: SyncReplica {
    static let collection = "drawings"
    private static let insert = try! DQLParser.parse(
        "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE")

    let drawingID: String
    private var state: ReplicaState
    var onStrokes: ([String]) -> Void = { _ in }

    init(peerID: UInt64, drawingID: String) {
        self.drawingID = drawingID
        state = ReplicaState(peerID: PeerID(peerID))
    }

    var subscription: SyncSubscription {
        SyncSubscription(collection: Self.collection, documentID: drawingID)
    }

    /// Writes one stroke group (its key and encoded value) into the drawing.
    func write(strokeKey: String, value: String, wall: Int64) throws {
        let document: DocumentValue = .object([
            "_id": .string(drawingID), "strokes": .object([strokeKey: .string(value)]),
        ])
        _ = try state.execute(Self.insert, arguments: ["doc": document], wall: wall)
    }

    func encodedVersions(for subscription: SyncSubscription) throws -> [UInt8] {
        state.versions(collection: subscription.collection, documentID: subscription.documentID).encoded()
    }

    func encodedChanges(for subscription: SyncSubscription, since remoteVersions: [UInt8]) throws -> [UInt8]?
    {
        let since = try DocumentVersions(decoding: remoteVersions)
        let delta = state.changes(
            collection: subscription.collection, documentID: subscription.documentID, since: since)
        return delta.isEmpty ? nil : delta.encoded()
    }

    /// What a relay's listing would say of the drawings this client holds.
    func listing(of collection: String) -> [String: SyncListingEntry]? {
        var listing: [String: SyncListingEntry] = [:]
        for id in state.documentIDs(in: collection) {
            let key = DocumentKey(collection: collection, id: id)
            listing[id] = state.document(key).flatMap { SyncListingEntry(document: $0) }
        }
        return listing
    }

    func applyEncodedChanges(_ bytes: [UInt8], for subscription: SyncSubscription) throws -> SyncApplyOutcome
    {
        let delta = try ReplicaDelta(decoding: bytes)
        // Only strokes this replica did not hold count as arrived (a resent delta brings none).
        let document = DocumentKey(collection: Self.collection, id: drawingID)
        // Only its own drawing's: a relay that sends more (every document it holds) is not
        // credited for it.
        let arriving = delta.documents.filter { $0.documentID == drawingID }.flatMap(\.events).compactMap {
            event in
            event.path.count == 2 && event.path[0] == "strokes" ? event.path[1] : nil
        }.filter { state.document(document)?.value(at: ["strokes", $0]) == nil }
        switch try state.apply(delta, wall: 0) {
        case .refused:
            return .refused
        case .applied(let newEvents, _):
            if !arriving.isEmpty { onStrokes(arriving) }
            return newEvents > 0 ? .changed : .unchanged
        }
    }
}

import EventRuntime
import MonotonicTime
import ReplicaCore
import ReplicaSync

/// A relay's compaction bookkeeping (driven by `RelayReplica+Compaction`): the versions its
/// clients sent since they were last written, what it wrote of each, the documents worth a
/// look, and its figures. An acknowledgement costs a dictionary assignment; the versions are
/// decoded only when written, once a step.
struct RelayCompactor {
    struct Heard: Hashable {
        var peer: PeerID
        var subscription: SyncSubscription
    }

    struct Written {
        var vector: VersionVector
        var lastSeen: Int64
    }

    /// The latest encoded versions of each client and subscription, not yet written.
    var heard: [Heard: [UInt8]] = [:]
    /// What was last written of each client's version of each document, and when.
    var written: [DocumentKey: [PeerID: Written]] = [:]
    /// Documents some client holds more of since they were last looked at.
    var candidates: Set<DocumentKey> = []
    /// Documents to read again whatever the estimate says: another relay compacted them at the
    /// same time, so two whole states are left to make one.
    var recheck: Set<DocumentKey> = []
    /// When this relay last compacted (or tried to compact) each document.
    var lastAttempt: [DocumentKey: SyncInstant] = [:]
    var lastForgotten: SyncInstant?
    var timer: EventLoopTimer?
    /// Rows whose write failed, to write with the next.
    var unwritten: [RelayEventStore.PeerVersion] = []
    /// A statement of compaction is on the wire.
    var isBusy = false
    var compactions = 0
    var droppedEvents = 0
    var deletedRows = 0

    /// The rows to write: every client's version of a document that changed, or whose row is
    /// older than `resolution`. Versions that do not decode count for nothing (that client holds
    /// compaction back no further than before). Marks the documents that changed as candidates.
    mutating func takeHeard(now: Int64, resolution: Int64) -> [RelayEventStore.PeerVersion] {
        var rows = unwritten
        unwritten = []
        for (key, bytes) in heard {
            guard let versions = try? DocumentVersions(decoding: bytes) else { continue }
            for (id, vector) in versions.vectors where key.subscription.documentID ?? id == id {
                // Only documents of the subscription: a client names no rows for others.
                let document = DocumentKey(collection: key.subscription.collection, id: id)
                let before = written[document]?[key.peer]
                if let before, before.vector == vector, now - before.lastSeen < resolution { continue }
                if before?.vector != vector { candidates.insert(document) }
                written[document, default: [:]][key.peer] = Written(vector: vector, lastSeen: now)
                rows.append(.init(document: document, peer: key.peer, vector: vector, lastSeen: now))
            }
        }
        heard = [:]
        return rows
    }

    /// Rows whose write failed are written again at the next step (a later version of the same
    /// client and document, taken then too, wins).
    mutating func rewrite(_ rows: [RelayEventStore.PeerVersion]) {
        unwritten = rows + unwritten
    }

    /// What this relay's own clients heard from since `cutoff` hold of a document, met with
    /// `own`: no less than the stable vector all relays' clients give, so a guess of whether
    /// a compaction is worth reading the document for. Nil when no client of it is known.
    func estimatedStable(for document: DocumentKey, own: VersionVector, cutoff: Int64) -> VersionVector? {
        let counted = (written[document] ?? [:]).values.filter { $0.lastSeen >= cutoff }
        guard !counted.isEmpty else { return nil }
        return counted.reduce(own) { $0.meet($1.vector) }
    }

    /// Forgets what was written before `cutoff` (the table forgets it too).
    mutating func forget(before cutoff: Int64) {
        for (document, peers) in written {
            let kept = peers.filter { $0.value.lastSeen >= cutoff }
            written[document] = kept.isEmpty ? nil : kept
        }
    }
}

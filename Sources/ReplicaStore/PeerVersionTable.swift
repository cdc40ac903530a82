import ReplicaCore

/// What each peer this replica syncs with last said it holds, per document, and when: the input
/// of compaction's stable vector (see `Replica+Compaction`). Kept in memory and written to the
/// `peer_versions` table by a background step; a row lost in a crash only makes compaction wait
/// (an older vector is a smaller one) or, for a peer not counted at all, sends that peer the
/// whole state when it comes back, never a wrong delta.
struct PeerVersionTable {
    struct Key: Hashable {
        var peer: PeerID
        var document: DocumentKey
    }

    struct Row: Equatable {
        var vector: VersionVector
        var lastSeen: Int64
    }

    /// A row whose vector is unchanged is written again only when its last-seen time is older
    /// than this, so a peer's every acknowledgement is not a SQLite write.
    static let lastSeenResolution: Int64 = 3_600_000

    private(set) var rows: [DocumentKey: [PeerID: Row]] = [:]
    private(set) var lastSeen: [PeerID: Int64] = [:]
    private var saved: [Key: Row] = [:]
    private(set) var unsaved: Set<Key> = []

    /// A row as stored.
    mutating func load(_ row: Row, peer: PeerID, document: DocumentKey) {
        rows[document, default: [:]][peer] = row
        saved[Key(peer: peer, document: document)] = row
        lastSeen[peer] = max(lastSeen[peer] ?? .min, row.lastSeen)
    }

    /// Records that `peer` holds `vector` of `document` at `time`; true when the vector changed.
    @discardableResult
    mutating func record(_ vector: VersionVector, peer: PeerID, document: DocumentKey, at time: Int64) -> Bool
    {
        let key = Key(peer: peer, document: document)
        let previous = rows[document]?[peer]
        let row = Row(vector: vector, lastSeen: time)
        rows[document, default: [:]][peer] = row
        lastSeen[peer] = max(lastSeen[peer] ?? .min, time)
        if let stored = saved[key], stored.vector == vector, time - stored.lastSeen < Self.lastSeenResolution
        {
            unsaved.remove(key)
        } else {
            unsaved.insert(key)
        }
        return previous?.vector != vector
    }

    /// The pointwise minimum of `own` and what every peer heard from since `cutoff` holds of
    /// `document`; a counted peer that never listed the document holds nothing of it.
    func stable(_ own: VersionVector, for document: DocumentKey, seenSince cutoff: Int64) -> VersionVector {
        var stable = own
        let holders = rows[document] ?? [:]
        for (peer, seen) in lastSeen where seen >= cutoff {
            // A counted peer without the document holds nothing of it: nothing is stable. (A
            // relay's thousand clients each hold a few of its documents: most answers are this.)
            guard let vector = holders[peer]?.vector else { return VersionVector() }
            stable = stable.meet(vector)
        }
        return stable
    }

    /// The peers heard from since `cutoff`.
    func peers(seenSince cutoff: Int64) -> [PeerID] {
        lastSeen.filter { $0.value >= cutoff }.map(\.key).sorted()
    }

    /// The rows to write, marked written.
    mutating func takeUnsaved() -> [(key: Key, row: Row)] {
        let keys = unsaved.sorted {
            ($0.peer, $0.document.collection, $0.document.id) < (
                $1.peer, $1.document.collection, $1.document.id
            )
        }
        unsaved = []
        return keys.compactMap { key in
            guard let row = rows[key.document]?[key.peer] else { return nil }
            saved[key] = row
            return (key, row)
        }
    }

    /// Puts rows back as unsaved after their transaction failed.
    mutating func markUnsaved(_ keys: [Key]) {
        for key in keys {
            saved[key] = nil
            unsaved.insert(key)
        }
    }
}

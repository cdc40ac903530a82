import ReplicaCore

/// What a relay commits to the log: a client's delta, or a client's whole state of some
/// documents (it compacted history the relay lacked; see `ReplicaFullState`).
public enum RelayWrite: Equatable, Sendable {
    case delta(ReplicaDelta)
    case fullState(ReplicaFullState)
}

/// One stored whole state of one document: an immutable row keyed by the SHA-256 of its record
/// (so storing it twice keeps one row), holding the document's compacted vector and every event
/// the sender held.
public struct StoredFullState: Equatable, Sendable {
    public var documentID: String
    /// The row's key within its document (PostgreSQL's `sha256` of the record).
    public var digest: [UInt8]
    public var compacted: VersionVector
    public var events: [DocumentEvent]

    public init(documentID: String, digest: [UInt8], compacted: VersionVector, events: [DocumentEvent]) {
        self.documentID = documentID
        self.digest = digest
        self.compacted = compacted
        self.events = events
    }
}

/// Rows read from the log for one collection: events (a delta: documents in id order, events in
/// dot order) and the whole states not read before.
///
/// A document is the causal-context join of its rows: every event of the event rows and of the
/// whole states, except those a whole state's compacted vector covers while that state lacks
/// them (they were removed and dropped where it was taken), removed wherever any row has them
/// removed. The join is commutative, associative and idempotent, so any relay that has read the
/// same rows, in whatever order and however often, holds the same document. It is computed by
/// ReplicaCore's `DocumentState.adopt` (whole states) and `integrate` (events), the code the
/// SQLite replica takes a whole state with.
public struct StoredRows: Equatable, Sendable {
    public var delta: ReplicaDelta
    public var fullStates: [StoredFullState]

    public init(delta: ReplicaDelta, fullStates: [StoredFullState] = []) {
        self.delta = delta
        self.fullStates = fullStates
    }

    /// What a committed write adds to the rows a relay read: a delta's events, or a whole
    /// state's documents (without their digests, which PostgreSQL computed: the next read of
    /// the document reads them once more, which changes nothing).
    public init(_ write: RelayWrite) {
        switch write {
        case .delta(let delta):
            self.init(delta: delta)
        case .fullState(let fullState):
            self.init(
                delta: ReplicaDelta(collection: fullState.delta.collection, documents: []),
                fullStates: fullState.delta.documents.map {
                    StoredFullState(
                        documentID: $0.documentID, digest: [], compacted: fullState.compacted[$0.documentID],
                        events: $0.events)
                })
        }
    }

    public var isEmpty: Bool { delta.isEmpty && fullStates.isEmpty }

    /// The ids of the documents with a row here, sorted.
    public var documentIDs: [String] {
        Set(delta.documents.map(\.documentID)).union(fullStates.map(\.documentID)).sorted()
    }

    /// Enters the rows of the documents `wanted` accepts into `state`: each document's whole
    /// states first (adopted in digest order), then its events that continue its version vector
    /// without a gap (a row another relay committed later can be visible before one it
    /// committed earlier; the rest comes with a later read). Returns the documents whose state
    /// changed (events, removals or compacted vector) and those that stopped at a gap.
    public func enter(
        into state: inout ReplicaState, wanted: (DocumentKey) -> Bool = { _ in true }
    ) -> (changed: Set<String>, gaps: Set<String>) {
        let collection = delta.collection
        var changed: Set<String> = []
        var gaps: Set<String> = []
        var byDocument: [String: [StoredFullState]] = [:]
        for fullState in fullStates { byDocument[fullState.documentID, default: []].append(fullState) }
        for (id, states) in byDocument.sorted(by: { $0.key < $1.key }) {
            let key = DocumentKey(collection: collection, id: id)
            guard wanted(key) else { continue }
            for fullState in states.sorted(by: { $0.digest.lexicographicallyPrecedes($1.digest) }) {
                let before = state.document(key)
                // The relay never writes, so its clock's wall time is never used. Rows were
                // checked when they were read (`ReplicaState.validate` throws for nothing else).
                let paths =
                    (try? state.adopt(
                        fullState: fullState.events, compacted: fullState.compacted, into: key, wall: 0))
                    ?? []
                let after = state.document(key)
                if !paths.isEmpty || before?.compacted != after?.compacted
                    || before?.versionVector != after?.versionVector
                {
                    changed.insert(id)
                }
            }
        }
        for document in delta.documents {
            let key = DocumentKey(collection: collection, id: document.documentID)
            guard wanted(key) else { continue }
            let have = state.document(key)?.versionVector ?? VersionVector()
            let (usable, complete) = Self.contiguous(document.events, after: have)
            if !complete { gaps.insert(document.documentID) }
            guard !usable.isEmpty else { continue }
            let outcome = try? state.apply(
                ReplicaDelta(
                    collection: collection,
                    documents: [.init(documentID: document.documentID, events: usable)]),
                wall: 0)
            if case .applied(let newEvents, let documents) = outcome, newEvents > 0 || !documents.isEmpty {
                changed.insert(document.documentID)
            }
        }
        return (changed, gaps)
    }

    /// Each document as a listing reads it: the join of its whole states and its events, which
    /// may be only those a listing depends on (not contiguous per peer; never for a cache).
    public var joinedDocuments: [String: DocumentState] {
        var documents: [String: DocumentState] = [:]
        for fullState in fullStates.sorted(by: { $0.digest.lexicographicallyPrecedes($1.digest) }) {
            _ = documents[fullState.documentID, default: DocumentState()].adopt(
                fullState: fullState.events, compacted: fullState.compacted)
        }
        for document in delta.documents {
            let events = DocumentState(events: document.events)
            documents[document.documentID] = documents[document.documentID]?.merged(with: events) ?? events
        }
        return documents
    }

    /// The events that continue `have` without a gap, and whether that is all of them.
    static func contiguous(_ events: [DocumentEvent], after have: VersionVector) -> ([DocumentEvent], Bool) {
        var next: [PeerID: UInt64] = [:]
        var usable: [DocumentEvent] = []
        var complete = true
        for event in events.sorted(by: { $0.dot < $1.dot }) {
            let peer = event.dot.peer
            let expected = next[peer] ?? have[peer] + 1
            if event.dot.counter < expected { continue }
            if event.dot.counter > expected {
                complete = false
                next[peer] = .max
                continue
            }
            next[peer] = expected + 1
            usable.append(event)
        }
        return (usable, complete)
    }
}

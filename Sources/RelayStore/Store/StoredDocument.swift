import ReplicaCore

/// Every row of one document as compaction reads it (`RelaySchema.readCompaction`): its event
/// rows, each with the SHA-256 of its record, its whole states, and what each client heard from
/// within the retention time said it holds of it.
public struct StoredDocument: Equatable, Sendable {
    public struct EventRow: Equatable, Sendable {
        public var event: DocumentEvent
        /// PostgreSQL's `sha256` of the row's record: the row is deleted only while it holds it.
        public var digest: [UInt8]

        public init(event: DocumentEvent, digest: [UInt8]) {
            self.event = event
            self.digest = digest
        }
    }

    public var collection: String
    public var documentID: String
    public var events: [EventRow]
    public var fullStates: [StoredFullState]
    /// What each counted client last said it holds of this document.
    public var peerVersions: [PeerID: VersionVector]

    public init(
        collection: String, documentID: String, events: [EventRow], fullStates: [StoredFullState],
        peerVersions: [PeerID: VersionVector]
    ) {
        self.collection = collection
        self.documentID = documentID
        self.events = events
        self.fullStates = fullStates
        self.peerVersions = peerVersions
    }

    /// The document these rows make (`StoredRows.enter`: whole states, then events up to each
    /// peer's first gap), with every event row its version vector covers merged in once more,
    /// so that each row it covers is part of it in the form the row holds (a row after a gap
    /// is not, and is never covered).
    public var joined: DocumentState {
        var state = ReplicaState(peerID: PeerID(0))
        let key = DocumentKey(collection: collection, id: documentID)
        let rows = StoredRows(
            delta: ReplicaDelta(
                collection: collection,
                documents: events.isEmpty
                    ? []
                    : [.init(documentID: documentID, events: events.map(\.event).sorted { $0.dot < $1.dot })]
            ),
            fullStates: fullStates)
        _ = rows.enter(into: &state)
        let document = state.document(key) ?? DocumentState()
        let vector = document.versionVector
        return document.merged(
            with: DocumentState(events: events.lazy.map(\.event).filter { vector.contains($0.dot) }))
    }

    /// What every counted client and the rows hold: the pointwise minimum of their vectors and
    /// `own`. Empty while no client is counted: nothing has been acknowledged.
    public func stable(_ own: VersionVector) -> VersionVector {
        guard !peerVersions.isEmpty else { return VersionVector() }
        return peerVersions.values.reduce(own) { $0.meet($1) }
    }

    /// The compacted whole state these rows make, when worth storing: the join with every event
    /// the counted clients all hold removed dropped (`DocumentState.compact(stable:)`), when at
    /// least `minimumDropped` and a quarter of its events go, or to merge several whole states
    /// into one. Nil otherwise.
    public func compaction(minimumDropped: Int) -> RelayCompaction? {
        var document = joined
        let held = document.eventCount
        let stable = stable(document.versionVector)
        let droppable = document.droppableCount(stable: stable)
        let worthDropping = droppable >= max(1, minimumDropped) && droppable * 4 >= held
        guard worthDropping || fullStates.count > 1 else { return nil }
        let vector = document.versionVector
        let dropped = document.compact(stable: stable).count
        var kept: [DocumentEvent] = []
        kept.reserveCapacity(document.eventCount)
        document.forEachEvent { kept.append($0) }
        let record = ReplicaFullState(
            delta: ReplicaDelta(
                collection: collection, documents: [.init(documentID: documentID, events: kept)]),
            compacted: DocumentVersions([documentID: document.compacted])
        ).encoded()
        let covered = events.filter { vector.contains($0.event.dot) }
        return RelayCompaction(
            collection: collection, documentID: documentID, record: record, compacted: document.compacted,
            coveredEvents: covered.map { ($0.event.dot, $0.digest) }.map(RelayCompaction.CoveredEvent.init),
            coveredFullStates: fullStates.map(\.digest), heldBefore: held, dropped: dropped)
    }
}

/// A compacted whole state of one document and the rows it covers, to be stored in one
/// transaction (`RelayEventStore.store(_:completion:)`): the rows it was made from, which it
/// holds (each event in at least as removed a form) or drops by its compacted vector.
public struct RelayCompaction: Equatable, Sendable {
    public struct CoveredEvent: Equatable, Sendable {
        public var dot: Dot
        public var digest: [UInt8]
    }

    public var collection: String
    public var documentID: String
    /// The whole state (`ReplicaFullState` of this one document).
    public var record: [UInt8]
    public var compacted: VersionVector
    public var coveredEvents: [CoveredEvent]
    /// The digests of the whole states it was made from.
    public var coveredFullStates: [[UInt8]]
    /// Events of the join before, and how many of them it drops.
    public var heldBefore: Int
    public var dropped: Int
}

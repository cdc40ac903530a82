import ReplicaCore

/// Compaction of the log (DECISIONS.md, "The relay on PostgreSQL compacts its documents"): a
/// relay reads one document's rows whole with what its clients hold (`readDocument`), makes
/// the compacted whole state from exactly those rows (`StoredDocument.compaction`), and stores
/// it in one statement that deletes only the rows it was made from, by key and content
/// (`store(_:completion:)`). What clients hold comes from every relay (`recordPeerVersions`).
extension RelayEventStore {
    /// A client's version of one document, as a relay heard it.
    public struct PeerVersion: Equatable, Sendable {
        public var document: DocumentKey
        public var peer: PeerID
        public var vector: VersionVector
        /// The relay's wall clock when it heard it (ms since 1970).
        public var lastSeen: Int64

        public init(document: DocumentKey, peer: PeerID, vector: VersionVector, lastSeen: Int64) {
            self.document = document
            self.peer = peer
            self.vector = vector
            self.lastSeen = lastSeen
        }
    }

    /// What one compaction changed in the log.
    public struct CompactionOutcome: Equatable, Sendable {
        /// Whether the whole state was a new row (and other relays were notified).
        public var storedNewState: Bool
        public var deletedEvents: Int
        public var deletedFullStates: Int
        /// Events of the document the new whole state dropped (set by `compact`).
        public var droppedEvents = 0
        /// Rows it was made from (set by `compact`): more than were deleted when another relay
        /// compacted the document at the same time (then two whole states are left).
        public var coveredRows = 0

        /// Whether another compaction deleted some of the rows first.
        public var raced: Bool { deletedEvents + deletedFullStates < coveredRows }
    }

    /// Writes what clients said they hold (one statement; a later row of the same client and
    /// document wins within it).
    public func recordPeerVersions(
        _ versions: [PeerVersion], completion: @escaping (Result<Int, PostgresError>) -> Void
    ) {
        var latest: [String: PeerVersion] = [:]
        for version in versions {
            latest["\(version.document.collection)\u{0}\(version.document.id)\u{0}\(version.peer.rawValue)"] =
                version
        }
        // In key order, so two relays writing rows of the same clients lock them in one order.
        let rows = latest.values.sorted {
            ($0.document.collection, $0.document.id, $0.peer) < (
                $1.document.collection, $1.document.id, $1.peer
            )
        }
        guard !rows.isEmpty else { return completion(.success(0)) }
        connection.send(
            RelaySchema.recordPeerVersions,
            [
                .text(databaseID), .textArray(rows.map(\.document.collection)),
                .textArray(rows.map(\.document.id)),
                .int8Array(rows.map { Int64(bitPattern: $0.peer.rawValue) }),
                .byteaArray(rows.map { DocumentVersions([$0.document.id: $0.vector]).encoded() }),
                .int8Array(rows.map(\.lastSeen)),
            ], operation: "recording what \(rows.count) clients hold"
        ) { outcome in
            completion(outcome.map { _ in rows.count })
        }
    }

    /// Forgets what clients not heard from about a document since `cutoff` held of it.
    public func forgetPeerVersions(
        seenBefore cutoff: Int64, completion: @escaping (Result<Int, PostgresError>) -> Void
    ) {
        connection.send(
            RelaySchema.forgetPeerVersions, [.text(databaseID), .int8(cutoff)],
            operation: "forgetting clients unheard of"
        ) { completion($0.map(\.affected)) }
    }

    /// Every row of one document, and what each client heard from since `cutoff` holds of it,
    /// read in one statement and checked as reads check rows.
    public func readDocument(
        collection: String, documentID: String, countedSince cutoff: Int64,
        completion: @escaping (Result<StoredDocument, PostgresError>) -> Void
    ) {
        let target = connection.target.description
        connection.send(
            RelaySchema.readCompaction,
            [.text(databaseID), .text(collection), .text(documentID), .int8(cutoff)],
            operation: "reading \(collection)/\(documentID) to compact it"
        ) { outcome in
            completion(
                outcome.flatMap { rows in
                    Result { () throws(PostgresError) in
                        try Self.document(
                            collection: collection, documentID: documentID, rows: rows, target: target)
                    }
                })
        }
    }

    /// Stores a compacted whole state and deletes the rows it covers, in one transaction.
    public func store(
        _ compaction: RelayCompaction,
        completion: @escaping (Result<CompactionOutcome, PostgresError>) -> Void
    ) {
        let notice =
            CommitNotice.payload(
                collection: compaction.collection, documentID: compaction.documentID, records: nil,
                stored: nil)
            ?? ""
        connection.send(
            RelaySchema.storeCompaction,
            [
                .text(databaseID), .text(compaction.collection), .text(compaction.documentID),
                .bytea(compaction.record),
                .int8Array(compaction.coveredEvents.map { Int64(bitPattern: $0.dot.peer.rawValue) }),
                .int8Array(compaction.coveredEvents.map { Int64(bitPattern: $0.dot.counter) }),
                .byteaArray(compaction.coveredEvents.map(\.digest)),
                .byteaArray(compaction.coveredFullStates),
                .text(channel), .text(notice),
            ], operation: "storing the compacted \(compaction.collection)/\(compaction.documentID)"
        ) { outcome in
            completion(
                outcome.map { rows in
                    CompactionOutcome(
                        storedNewState: (rows.rows.isEmpty ? 0 : rows.int64(0, 0) ?? 0) > 0,
                        deletedEvents: Int(rows.rows.isEmpty ? 0 : rows.int64(0, 1) ?? 0),
                        deletedFullStates: Int(rows.rows.isEmpty ? 0 : rows.int64(0, 2) ?? 0))
                })
        }
    }

    /// Reads one document and, when it is worth it (`StoredDocument.compaction`), stores its
    /// compacted whole state: nil when nothing was stored.
    public func compact(
        collection: String, documentID: String, countedSince cutoff: Int64, minimumDropped: Int,
        completion: @escaping (Result<CompactionOutcome?, PostgresError>) -> Void
    ) {
        readDocument(collection: collection, documentID: documentID, countedSince: cutoff) { [self] outcome in
            switch outcome {
            case .failure(let failure): completion(.failure(failure))
            case .success(let document):
                guard let compaction = document.compaction(minimumDropped: minimumDropped) else {
                    return completion(.success(nil))
                }
                store(compaction) { outcome in
                    completion(
                        outcome.map {
                            var done = $0
                            done.droppedEvents = compaction.dropped
                            done.coveredRows =
                                compaction.coveredEvents.count + compaction.coveredFullStates.count
                            return done
                        })
                }
            }
        }
    }

    private static func document(collection: String, documentID: String, rows: PostgresRows, target: String)
        throws(PostgresError) -> StoredDocument
    {
        var events: [StoredDocument.EventRow] = []
        var fullStates: [StoredFullState] = []
        var peers: [PeerID: VersionVector] = [:]
        func damaged(_ index: Int, _ what: String) -> PostgresError {
            PostgresError(
                kind: .damagedRow, operation: "reading \(collection)/\(documentID) to compact it",
                target: target,
                message: "row \(index) \(what)")
        }
        for index in rows.rows.indices {
            switch rows.int32(index, 0) {
            case 0:
                guard let peer = rows.int64(index, 1), let counter = rows.int64(index, 2),
                    let record = rows.bytes(index, 3), let digest = rows.bytes(index, 4),
                    let event = try? DocumentEvent(decoding: record),
                    event.dot
                        == Dot(peer: PeerID(UInt64(bitPattern: peer)), counter: UInt64(bitPattern: counter))
                else { throw damaged(index, "does not hold the event its key names") }
                events.append(.init(event: event, digest: digest))
            case 1:
                guard let record = rows.bytes(index, 3), let digest = rows.bytes(index, 4),
                    let state = try? ReplicaFullState(decoding: record), state.delta.collection == collection,
                    state.delta.documents.count == 1, let one = state.delta.documents.first,
                    one.documentID == documentID,
                    (try? ReplicaState.validate(one.events, documentID: documentID)) != nil
                else { throw damaged(index, "is not the document's whole state its key names") }
                fullStates.append(
                    StoredFullState(
                        documentID: documentID, digest: digest, compacted: state.compacted[documentID],
                        events: one.events))
            case 2:
                guard let peer = rows.int64(index, 1), let record = rows.bytes(index, 3),
                    let versions = try? DocumentVersions(decoding: record)
                else { throw damaged(index, "is not a client's version of the document") }
                peers[PeerID(UInt64(bitPattern: peer))] = versions[documentID]
            default:
                throw damaged(index, "is of no kind this program reads")
            }
        }
        fullStates.sort { $0.digest.lexicographicallyPrecedes($1.digest) }
        return StoredDocument(
            collection: collection, documentID: documentID, events: events, fullStates: fullStates,
            peerVersions: peers)
    }
}

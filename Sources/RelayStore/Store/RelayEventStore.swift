import ReplicaCore

/// The relay tier's durable log in PostgreSQL, for one database id: events stored as
/// `DocumentEvent.encoded()` keyed by their dot, inserted idempotently and never rewritten, so
/// every relay derives the same documents from the same rows whatever order they came in.
///
/// Runs on one `PostgresConnection`; every call answers through a callback on the loop.
public final class RelayEventStore {
    public let databaseID: String
    public let connection: PostgresConnection
    /// The LISTEN/NOTIFY channel of this database id.
    public let channel: String
    /// The channel its relays pass their clients' presence on (`PresenceNotice`).
    public let presenceChannel: String

    private init(databaseID: String, connection: PostgresConnection) {
        self.databaseID = databaseID
        self.connection = connection
        channel = RelaySchema.channel(databaseID: databaseID)
        presenceChannel = channel + "_presence"
    }

    /// Brings the schema up to date (one relay at a time, under an advisory lock) and answers
    /// with the store, or with the failure (a schema newer than this program included).
    public static func open(
        databaseID: String, connection: PostgresConnection,
        completion: @escaping (Result<RelayEventStore, PostgresError>) -> Void
    ) {
        let store = RelayEventStore(databaseID: databaseID, connection: connection)
        store.migrate { failure in
            completion(failure.map { .failure($0) } ?? .success(store))
        }
    }

    // MARK: Writing

    /// Stores every event of `writes` and each document of their whole states (an immutable row
    /// per document, with its events stored as event rows too) in one transaction, skipping what
    /// is already stored, and then notifies once per document that got a new row, in a
    /// transaction of its own (`RelaySchema.commitBatch`: the rows' COMMIT does not wait for
    /// other relays' notices); `completion` runs after both with the number of new rows, so
    /// after the rows' COMMIT. The notice carries the document's events of the
    /// batch when they fit (`CommitNotice`); a document that got a whole state is noticed
    /// without events or vector: every relay holding it reads it (it may drop events they hold).
    public func commit(_ writes: [RelayWrite], completion: @escaping (Result<Int, PostgresError>) -> Void) {
        var collections: [String] = []
        var documents: [String] = []
        var peers: [Int64] = []
        var counters: [Int64] = []
        var records: [[UInt8]] = []
        var heads: [String] = []
        var stored: [DocumentKey: (records: [[UInt8]], vector: VersionVector)] = [:]
        var wholeCollections: [String] = []
        var wholeDocuments: [String] = []
        var wholeRecords: [[UInt8]] = []
        var whole: Set<DocumentKey> = []
        func add(_ delta: ReplicaDelta) {
            for document in delta.documents {
                let key = DocumentKey(collection: delta.collection, id: document.documentID)
                for event in document.events {
                    let record = event.encoded()
                    collections.append(delta.collection)
                    documents.append(document.documentID)
                    peers.append(Int64(bitPattern: event.dot.peer.rawValue))
                    counters.append(Int64(bitPattern: event.dot.counter))
                    records.append(record)
                    heads.append(event.path.first ?? "")
                    stored[key, default: ([], VersionVector())].records.append(record)
                    stored[key]?.vector.formUnion(VersionVector([event.dot.peer: event.dot.counter]))
                }
            }
        }
        for write in writes {
            switch write {
            case .delta(let delta):
                add(delta)
            case .fullState(let fullState):
                add(fullState.delta)
                let collection = fullState.delta.collection
                for document in fullState.delta.documents {
                    let id = document.documentID
                    let one = ReplicaFullState(
                        delta: ReplicaDelta(collection: collection, documents: [document]),
                        compacted: DocumentVersions([id: fullState.compacted[id]]))
                    wholeCollections.append(collection)
                    wholeDocuments.append(id)
                    wholeRecords.append(one.encoded())
                    let key = DocumentKey(collection: collection, id: id)
                    whole.insert(key)
                    stored[key] = stored[key] ?? ([], VersionVector())
                }
            }
        }
        guard !records.isEmpty || !wholeRecords.isEmpty else {
            completion(.success(0))
            return
        }
        let notices = stored.sorted { ($0.key.collection, $0.key.id) < ($1.key.collection, $1.key.id) }
            .compactMap { key, batch -> (String, String, String)? in
                let isWhole = whole.contains(key)
                return CommitNotice.payload(
                    collection: key.collection, documentID: key.id, records: isWhole ? nil : batch.records,
                    stored: isWhole ? nil : batch.vector
                ).map { (key.collection, key.id, $0) }
            }
        connection.send(
            RelaySchema.commitBatch,
            [
                .text(databaseID), .textArray(collections), .textArray(documents), .int8Array(peers),
                .int8Array(counters), .byteaArray(records), .text(channel), .textArray(notices.map(\.0)),
                .textArray(notices.map(\.1)), .textArray(notices.map(\.2)), .textArray(heads),
                .textArray(wholeCollections), .textArray(wholeDocuments), .byteaArray(wholeRecords),
            ], operation: "committing \(records.count) events and \(wholeRecords.count) whole states"
        ) { outcome in
            completion(outcome.map { rows in rows.rows.isEmpty ? 0 : Int(rows.int64(0, 0) ?? 0) })
        }
    }

    /// Stores every event of `deltas` (see `commit(_:completion:)` with writes).
    public func commit(_ deltas: [ReplicaDelta], completion: @escaping (Result<Int, PostgresError>) -> Void) {
        commit(deltas.map { .delta($0) }, completion: completion)
    }

    // MARK: Reading

    /// Every stored row of `collection` (or of one document) that a relay holding `since` and
    /// having read the whole states `known` (digests by document) lacks: the events `since`
    /// does not cover and the other whole states (`StoredRows`, ready for `enter(into:)`).
    public func changes(
        collection: String, documentID: String?, since: DocumentVersions,
        known: [String: Set<[UInt8]>] = [:],
        completion: @escaping (Result<StoredRows, PostgresError>) -> Void
    ) {
        changes(
            collection: collection, documentIDs: documentID.map { [$0] }, since: since, known: known,
            completion: completion)
    }

    /// The same for several documents of a collection in one statement (nil: all of them): the
    /// same rows as a read of each on its own, together.
    public func changes(
        collection: String, documentIDs: [String]?, since: DocumentVersions,
        known: [String: Set<[UInt8]>] = [:],
        completion: @escaping (Result<StoredRows, PostgresError>) -> Void
    ) {
        var documents: [String] = []
        var peers: [Int64] = []
        var counters: [Int64] = []
        let wanted = documentIDs.map(Set.init)
        for (id, vector) in since.vectors where wanted?.contains(id) ?? true {
            for entry in vector.sortedEntries {
                documents.append(id)
                peers.append(Int64(bitPattern: entry.peer.rawValue))
                counters.append(Int64(bitPattern: entry.counter))
            }
        }
        readRows(
            collection: collection, documentIDs: documentIDs, known: known, events: RelaySchema.readSince,
            [
                .text(databaseID), .text(collection), documentIDs.map { .textArray($0) } ?? .null,
                .textArray(documents), .int8Array(peers), .int8Array(counters),
            ], operation: "reading events of \(collection)", completion: completion)
    }

    /// The stored rows a listing depends on, of a collection or one document: the events at the
    /// root, `name` and `trashed`, and every whole state (they may drop some of those events).
    /// Not contiguous per peer: for `StoredRows.joinedDocuments`, never for a replica's cache.
    public func listingEvents(
        collection: String, documentID: String?,
        completion: @escaping (Result<StoredRows, PostgresError>) -> Void
    ) {
        readRows(
            collection: collection, documentIDs: documentID.map { [$0] }, known: [:],
            events: RelaySchema.readListing,
            [.text(databaseID), .text(collection), documentID.map { .text($0) } ?? .null],
            operation: "reading the listing of \(collection)", completion: completion)
    }

    /// The events `statement` selects (documents in id order, events in dot order), then the
    /// whole states of the documents not among `known`, together. Events first: a compaction
    /// committed between the two statements deleted only rows its new whole state covers, and
    /// the second statement sees that state (see `RelayEventStore+Compaction`).
    private func readRows(
        collection: String, documentIDs: [String]?, known: [String: Set<[UInt8]>], events statement: String,
        _ parameters: [PostgresValue], operation: String,
        completion: @escaping (Result<StoredRows, PostgresError>) -> Void
    ) {
        let target = connection.target.description
        connection.send(statement, parameters, operation: operation) { [self] outcome in
            let delta = outcome.flatMap { rows in
                Result { () throws(PostgresError) in
                    try Self.delta(collection: collection, rows: rows, target: target)
                }
            }
            guard case .success(let delta) = delta else {
                return completion(delta.map { StoredRows(delta: $0) })
            }
            fullStates(collection: collection, documentIDs: documentIDs, known: known) { outcome in
                completion(outcome.map { StoredRows(delta: delta, fullStates: $0) })
            }
        }
    }

    /// The whole states of a collection or some of its documents not among `known`, each
    /// checked: its record is one document's whole state, the document its row names, with
    /// valid events.
    private func fullStates(
        collection: String, documentIDs: [String]?, known: [String: Set<[UInt8]>],
        completion: @escaping (Result<[StoredFullState], PostgresError>) -> Void
    ) {
        var knownDocuments: [String] = []
        var knownDigests: [[UInt8]] = []
        let wanted = documentIDs.map(Set.init)
        for (id, digests) in known.sorted(by: { $0.key < $1.key }) where wanted?.contains(id) ?? true {
            for digest in digests.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                knownDocuments.append(id)
                knownDigests.append(digest)
            }
        }
        let target = connection.target.description
        connection.send(
            RelaySchema.readFullStates,
            [
                .text(databaseID), .text(collection), documentIDs.map { .textArray($0) } ?? .null,
                .textArray(knownDocuments), .byteaArray(knownDigests),
            ], operation: "reading whole states of \(collection)"
        ) { outcome in
            completion(
                outcome.flatMap { rows in
                    Result { () throws(PostgresError) in
                        try Self.fullStates(collection: collection, rows: rows, target: target)
                    }
                })
        }
    }

    private static func fullStates(collection: String, rows: PostgresRows, target: String)
        throws(PostgresError)
        -> [StoredFullState]
    {
        var result: [StoredFullState] = []
        for index in rows.rows.indices {
            guard let document = rows.text(index, 0), let digest = rows.bytes(index, 1),
                let record = rows.bytes(index, 2), let state = try? ReplicaFullState(decoding: record),
                state.delta.collection == collection, state.delta.documents.count == 1,
                let one = state.delta.documents.first, one.documentID == document,
                (try? ReplicaState.validate(one.events, documentID: document)) != nil
            else {
                throw PostgresError(
                    kind: .damagedRow, operation: "reading whole states of \(collection)", target: target,
                    message: "whole state \(index) is not the document's state its key names")
            }
            result.append(
                StoredFullState(
                    documentID: document, digest: digest, compacted: state.compacted[document],
                    events: one.events))
        }
        return result
    }

    /// Decodes each row once, checking that its record is the event its key names.
    private static func delta(collection: String, rows: PostgresRows, target: String) throws(PostgresError)
        -> ReplicaDelta
    {
        var documents: [ReplicaDelta.DocumentDelta] = []
        for index in rows.rows.indices {
            guard let document = rows.text(index, 0), let peer = rows.int64(index, 1),
                let counter = rows.int64(index, 2), let record = rows.bytes(index, 3),
                let event = try? DocumentEvent(decoding: record),
                event.dot == Dot(peer: PeerID(UInt64(bitPattern: peer)), counter: UInt64(bitPattern: counter))
            else {
                throw PostgresError(
                    kind: .damagedRow, operation: "reading events of \(collection)", target: target,
                    message: "row \(index) does not hold the event its key names")
            }
            if documents.last?.documentID != document {
                documents.append(.init(documentID: document, events: []))
            }
            documents[documents.count - 1].events.append(event)
        }
        // The table orders peers as signed numbers; a delta lists dots in unsigned order.
        for index in documents.indices { documents[index].events.sort { $0.dot < $1.dot } }
        return ReplicaDelta(collection: collection, documents: documents)
    }

    // MARK: Listening

    /// Starts listening on this database id's channel; `onNotice` gets each commit's notices,
    /// the ones of this connection's own commits included unless `ignoringOwn` (a relay holds
    /// what it committed already: its own notices are dropped unread, which halves the notices
    /// a relay decodes when two share the database).
    public func listen(
        ignoringOwn: Bool = false,
        onNotice: @escaping (CommitNotice) -> Void, onPresence: @escaping (String) -> Void = { _ in },
        completion: @escaping (PostgresError?) -> Void
    ) {
        let channel = channel
        let presenceChannel = presenceChannel
        connection.onNotification = { [weak connection] notification in
            if notification.channel == presenceChannel { return onPresence(notification.payload) }
            if ignoringOwn, let connection, notification.senderProcessID == connection.backendProcessID {
                return
            }
            guard notification.channel == channel, let notice = CommitNotice(payload: notification.payload)
            else { return }
            onNotice(notice)
        }
        // The channels are hex digits behind fixed words (RelaySchema.channel), never data.
        connection.send("LISTEN \(channel)", operation: "listening on \(channel)") { [connection] outcome in
            if case .failure(let failure) = outcome { return completion(failure) }
            connection.send("LISTEN \(presenceChannel)", operation: "listening on \(presenceChannel)") {
                completion($0.failure)
            }
        }
    }

    /// Sends presence payloads to the other relays (one statement, delivered when it ends).
    public func notifyPresence(_ payloads: [String], completion: @escaping (PostgresError?) -> Void) {
        connection.send(
            "SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p",
            [.text(presenceChannel), .textArray(payloads)],
            operation: "sending presence"
        ) { completion($0.failure) }
    }

    // MARK: Migrations

    private func migrate(completion: @escaping (PostgresError?) -> Void) {
        let steps: [(String, [PostgresValue], String)] = [
            ("BEGIN", [], "starting the migration"),
            (
                "SELECT pg_advisory_xact_lock($1)", [.int8(RelaySchema.migrationLock)],
                "waiting for other relays"
            ),
            (RelaySchema.createMeta, [], "creating drawtogether_meta"),
        ]
        run(steps) { [self] failure in
            if let failure { return rollBack(failure, completion) }
            connection.send(RelaySchema.readVersion, operation: "reading the schema version") {
                [self] outcome in
                switch outcome {
                case .failure(let failure): rollBack(failure, completion)
                case .success(let rows):
                    let found = rows.rows.isEmpty ? 0 : rows.int64(0, 0) ?? 0
                    guard found <= RelaySchema.version else {
                        return rollBack(
                            PostgresError(
                                kind: .statementFailed(sqlState: "DT001"), operation: "checking the schema",
                                target: connection.target.description,
                                message:
                                    "the schema is version \(found), this program knows up to \(RelaySchema.version); upgrade drawtogether"
                            ), completion)
                    }
                    var more: [(String, [PostgresValue], String)] = []
                    for (index, migration) in RelaySchema.migrations.enumerated().dropFirst(Int(found)) {
                        more += migration.map { ($0, [], "running migration \(index + 1)") }
                    }
                    more.append(
                        (
                            RelaySchema.writeVersion, [.int8(RelaySchema.version)],
                            "recording the schema version"
                        ))
                    more.append(("COMMIT", [], "committing the migration"))
                    run(more) { [self] failure in
                        if let failure { return rollBack(failure, completion) }
                        completion(nil)
                    }
                }
            }
        }
    }

    private func run(
        _ steps: [(String, [PostgresValue], String)], completion: @escaping (PostgresError?) -> Void
    ) {
        guard let (sql, parameters, operation) = steps.first else { return completion(nil) }
        connection.send(sql, parameters, operation: operation) { [self] outcome in
            if case .failure(let failure) = outcome { return completion(failure) }
            run(Array(steps.dropFirst()), completion: completion)
        }
    }

    private func rollBack(_ failure: PostgresError, _ completion: @escaping (PostgresError?) -> Void) {
        guard connection.isReady else { return completion(failure) }
        connection.send("ROLLBACK", operation: "rolling back the migration") { _ in completion(failure) }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}

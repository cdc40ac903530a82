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

    /// Stores every event of `deltas` in one transaction (already stored ones are skipped) and
    /// notifies once per document that got a new row, with the document's events of the batch
    /// when they fit (`CommitNotice`); `completion` runs after COMMIT with the number of new rows.
    public func commit(_ deltas: [ReplicaDelta], completion: @escaping (Result<Int, PostgresError>) -> Void) {
        var collections: [String] = []
        var documents: [String] = []
        var peers: [Int64] = []
        var counters: [Int64] = []
        var records: [[UInt8]] = []
        var heads: [String] = []
        var stored: [DocumentKey: (records: [[UInt8]], vector: VersionVector)] = [:]
        for delta in deltas {
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
        guard !records.isEmpty else {
            completion(.success(0))
            return
        }
        let notices = stored.sorted { ($0.key.collection, $0.key.id) < ($1.key.collection, $1.key.id) }
            .compactMap { key, batch -> (String, String, String)? in
                CommitNotice.payload(
                    collection: key.collection, documentID: key.id, records: batch.records,
                    stored: batch.vector
                ).map { (key.collection, key.id, $0) }
            }
        connection.send(
            RelaySchema.commitBatch,
            [
                .text(databaseID), .textArray(collections), .textArray(documents), .int8Array(peers),
                .int8Array(counters), .byteaArray(records), .text(channel), .textArray(notices.map(\.0)),
                .textArray(notices.map(\.1)), .textArray(notices.map(\.2)), .textArray(heads),
            ], operation: "committing \(records.count) events"
        ) { outcome in
            completion(outcome.map { rows in rows.rows.isEmpty ? 0 : Int(rows.int64(0, 0) ?? 0) })
        }
    }

    // MARK: Reading

    /// Every stored event of `collection` (or of one document) that `since` does not cover, as
    /// a delta ready for `ReplicaState.apply`: documents in id order, events in dot order.
    public func changes(
        collection: String, documentID: String?, since: DocumentVersions,
        completion: @escaping (Result<ReplicaDelta, PostgresError>) -> Void
    ) {
        changes(
            collection: collection, documentIDs: documentID.map { [$0] }, since: since, completion: completion
        )
    }

    /// The same for several documents of a collection in one statement (nil: all of them): the
    /// same events as a read of each on its own, together.
    public func changes(
        collection: String, documentIDs: [String]?, since: DocumentVersions,
        completion: @escaping (Result<ReplicaDelta, PostgresError>) -> Void
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
        let target = connection.target.description
        connection.send(
            RelaySchema.readSince,
            [
                .text(databaseID), .text(collection), documentIDs.map { .textArray($0) } ?? .null,
                .textArray(documents), .int8Array(peers), .int8Array(counters),
            ], operation: "reading events of \(collection)"
        ) { outcome in
            completion(
                outcome.flatMap { rows in
                    Result { () throws(PostgresError) in
                        try Self.delta(collection: collection, rows: rows, target: target)
                    }
                })
        }
    }

    /// The stored events a listing depends on (at the root, `name` and `trashed`) of a
    /// collection or one document, as a delta (documents in id order, events in dot order). Not
    /// contiguous per peer: for `SyncListingEntry(document:)`, never for a replica's cache.
    public func listingEvents(
        collection: String, documentID: String?,
        completion: @escaping (Result<ReplicaDelta, PostgresError>) -> Void
    ) {
        let target = connection.target.description
        connection.send(
            RelaySchema.readListing,
            [.text(databaseID), .text(collection), documentID.map { .text($0) } ?? .null],
            operation: "reading the listing of \(collection)"
        ) { outcome in
            completion(
                outcome.flatMap { rows in
                    Result { () throws(PostgresError) in
                        try Self.delta(collection: collection, rows: rows, target: target)
                    }
                })
        }
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
    /// the ones of this connection's own commits included.
    public func listen(
        onNotice: @escaping (CommitNotice) -> Void, onPresence: @escaping (String) -> Void = { _ in },
        completion: @escaping (PostgresError?) -> Void
    ) {
        let channel = channel
        let presenceChannel = presenceChannel
        connection.onNotification = { notification in
            if notification.channel == presenceChannel { return onPresence(notification.payload) }
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

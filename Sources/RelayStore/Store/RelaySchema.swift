/// The relay tier's tables in PostgreSQL and the migrations that make them.
///
/// Every table starts with `drawtogether_`, so the store can live in a database shared with
/// other programs. Migration `n` (from 1) brings the version in `drawtogether_meta` from n - 1
/// to n; relays starting together take an advisory lock, so exactly one of them migrates.
enum RelaySchema {
    /// The advisory lock key ("DRW1", as the SQLite store's application id).
    static let migrationLock: Int64 = 0x4452_5731

    static let migrations: [[String]] = [
        [
            // Events of every database id; the record is `DocumentEvent.encoded()`. The key is
            // the event's dot within its document, so inserting it twice keeps one row.
            """
            CREATE TABLE drawtogether_events(
                database_id text NOT NULL, collection text NOT NULL, document text NOT NULL,
                peer bigint NOT NULL, counter bigint NOT NULL, record bytea NOT NULL,
                PRIMARY KEY (database_id, collection, document, peer, counter))
            """
        ],
        [
            // The first key of the event's path ("" for the root), so a listing (names and
            // trash times, `SyncListingEntry`) reads only the rows it depends on. Rows stored
            // before have none and are read by every listing (still correct, only heavier).
            "ALTER TABLE drawtogether_events ADD COLUMN head text",
            """
            CREATE INDEX drawtogether_events_listing ON drawtogether_events(database_id, collection, document)
            WHERE head IS NULL OR head IN ('', 'name', 'trashed')
            """,
        ],
        [
            // Whole states taken from clients that compacted history the relay lacked
            // (`StoredRows`): immutable, keyed by the SHA-256 of the record (a
            // `ReplicaFullState` of the one document), so storing one twice keeps one row.
            """
            CREATE TABLE drawtogether_full_states(
                database_id text NOT NULL, collection text NOT NULL, document text NOT NULL,
                digest bytea NOT NULL, record bytea NOT NULL,
                PRIMARY KEY (database_id, collection, document, digest))
            """
        ],
        [
            // What each client said it holds of a document (a one-document version list) and
            // when (the writing relay's wall clock, ms), written by every relay for its clients:
            // compaction's stable vector (`RelaySchema.readCompaction`).
            """
            CREATE TABLE drawtogether_peer_versions(
                database_id text NOT NULL, collection text NOT NULL, document text NOT NULL,
                peer bigint NOT NULL, vector bytea NOT NULL, last_seen bigint NOT NULL,
                PRIMARY KEY (database_id, collection, document, peer))
            """
        ],
    ]

    static var version: Int64 { Int64(migrations.count) }

    static let createMeta = """
        CREATE TABLE IF NOT EXISTS drawtogether_meta(key text PRIMARY KEY, value bigint NOT NULL)
        """
    static let readVersion = "SELECT value FROM drawtogether_meta WHERE key = 'schema_version'"
    static let writeVersion = """
        INSERT INTO drawtogether_meta(key, value) VALUES ('schema_version', $1)
        ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
        """

    /// One statement, so one round trip and one implicit transaction: insert the batch's events
    /// and whole states (a row already there is left as it is), then notify once per document
    /// that got a new row. Parameters: database id, the events as five parallel arrays, the
    /// channel, the notices as three parallel arrays (collection, document, payload), the
    /// events' path heads, and the whole states as three parallel arrays (collection, document,
    /// record). Answers the new rows and the notices sent.
    static let commitBatch = """
        WITH inserted AS (
            INSERT INTO drawtogether_events(database_id, collection, document, peer, counter, record, head)
            SELECT $1, b.collection, b.document, b.peer, b.counter, b.record, b.head
            FROM unnest($2::text[], $3::text[], $4::int8[], $5::int8[], $6::bytea[], $11::text[])
                AS b(collection, document, peer, counter, record, head)
            ON CONFLICT (database_id, collection, document, peer, counter) DO NOTHING
            RETURNING collection, document),
        stored AS (
            INSERT INTO drawtogether_full_states(database_id, collection, document, digest, record)
            SELECT $1, f.collection, f.document, sha256(f.record), f.record
            FROM unnest($12::text[], $13::text[], $14::bytea[]) AS f(collection, document, record)
            ON CONFLICT (database_id, collection, document, digest) DO NOTHING
            RETURNING collection, document),
        notified AS (
            SELECT pg_notify($7, n.payload)
            FROM unnest($8::text[], $9::text[], $10::text[]) AS n(collection, document, payload)
            WHERE EXISTS (SELECT 1 FROM inserted i WHERE i.collection = n.collection AND i.document = n.document)
                OR EXISTS (SELECT 1 FROM stored s WHERE s.collection = n.collection AND s.document = n.document))
        SELECT (SELECT count(*) FROM inserted) + (SELECT count(*) FROM stored), (SELECT count(*) FROM notified)
        """

    /// The whole states of one collection (or some documents of it) not among those a relay has
    /// read. Parameters: database id, collection, the documents or NULL, the known ones as two
    /// parallel arrays (document, digest).
    static let readFullStates = """
        SELECT s.document, s.digest, s.record FROM drawtogether_full_states s
        WHERE s.database_id = $1 AND s.collection = $2
            AND ($3::text[] IS NULL OR s.document = ANY($3::text[]))
            AND NOT EXISTS (
                SELECT 1 FROM unnest($4::text[], $5::bytea[]) AS k(document, digest)
                WHERE k.document = s.document AND k.digest = s.digest)
        ORDER BY s.document COLLATE "C", s.digest
        """

    /// The events of one collection (or of some of its documents) that a version list does not
    /// cover. Parameters: database id, collection, the documents or NULL for all, the versions
    /// as three parallel arrays (document, peer, counter; one entry per document and peer). The
    /// versions are joined by hash, so a read of many documents stays linear in their rows.
    static let readSince = """
        SELECT e.document, e.peer, e.counter, e.record FROM drawtogether_events e
        LEFT JOIN unnest($4::text[], $5::int8[], $6::int8[]) AS h(document, peer, counter)
            ON h.document = e.document AND h.peer = e.peer
        WHERE e.database_id = $1 AND e.collection = $2 AND ($3::text[] IS NULL OR e.document = ANY($3::text[]))
            AND e.counter > COALESCE(h.counter, 0)
        ORDER BY e.document COLLATE "C", e.peer, e.counter
        """

    /// The events a listing depends on (see migration 2) of one collection, or one document of
    /// it. Parameters: database id, collection, document or NULL.
    static let readListing = """
        SELECT e.document, e.peer, e.counter, e.record FROM drawtogether_events e
        WHERE e.database_id = $1 AND e.collection = $2 AND ($3::text IS NULL OR e.document = $3)
            AND (e.head IS NULL OR e.head IN ('', 'name', 'trashed'))
        ORDER BY e.document COLLATE "C", e.peer, e.counter
        """

    /// LISTEN takes no parameters, so the channel is made of hex digits only: a hash of the
    /// database id. Two ids that share a channel cost a read that finds nothing, never a wrong row
    /// (reads are by database id).
    static func channel(databaseID: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in databaseID.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return "drawtogether_" + String(repeating: "0", count: 16 - digits.count) + digits
    }
}

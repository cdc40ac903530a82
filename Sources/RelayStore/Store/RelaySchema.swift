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
        [
            // A batch committed in two transactions (see `commitBatch`): the rows, durable, and
            // then the notices. NOTIFY serialises every committing transaction of the cluster
            // on one lock held until its commit is flushed, so notifying in the rows'
            // transaction made the relays' commits wait for each other's fsync, one at a time.
            // In a procedure both run on the server whatever becomes of the relay after
            // sending the call: the notices of committed rows are never lost to a relay killed
            // between the two.
            """
            CREATE OR REPLACE PROCEDURE drawtogether_commit_batch(
                p_database text, p_collections text[], p_documents text[], p_peers int8[],
                p_counters int8[], p_records bytea[], p_channel text, p_notice_collections text[],
                p_notice_documents text[], p_notice_payloads text[], p_heads text[],
                p_whole_collections text[], p_whole_documents text[], p_whole_records bytea[],
                INOUT stored bigint DEFAULT 0)
            LANGUAGE plpgsql AS $procedure$
            DECLARE
                payloads text[];
            BEGIN
                WITH inserted AS (
                    INSERT INTO drawtogether_events(database_id, collection, document, peer, counter, record, head)
                    SELECT p_database, b.collection, b.document, b.peer, b.counter, b.record, b.head
                    FROM unnest(p_collections, p_documents, p_peers, p_counters, p_records, p_heads)
                        AS b(collection, document, peer, counter, record, head)
                    ON CONFLICT (database_id, collection, document, peer, counter) DO NOTHING
                    RETURNING drawtogether_events.collection, drawtogether_events.document),
                whole AS (
                    INSERT INTO drawtogether_full_states(database_id, collection, document, digest, record)
                    SELECT p_database, f.collection, f.document, sha256(f.record), f.record
                    FROM unnest(p_whole_collections, p_whole_documents, p_whole_records)
                        AS f(collection, document, record)
                    ON CONFLICT (database_id, collection, document, digest) DO NOTHING
                    RETURNING drawtogether_full_states.collection, drawtogether_full_states.document)
                SELECT (SELECT count(*) FROM inserted) + (SELECT count(*) FROM whole),
                    ARRAY(
                        SELECT n.payload
                        FROM unnest(p_notice_collections, p_notice_documents, p_notice_payloads)
                            WITH ORDINALITY AS n(collection, document, payload, position)
                        WHERE EXISTS (
                                SELECT 1 FROM inserted i WHERE i.collection = n.collection AND i.document = n.document)
                            OR EXISTS (
                                SELECT 1 FROM whole s WHERE s.collection = n.collection AND s.document = n.document)
                        ORDER BY n.position)
                INTO stored, payloads;
                -- Durable as the session's synchronous_commit says (on by default): the ack waits for it.
                COMMIT;
                -- The notices alone: nothing durable in them (a listener that misses one reads
                -- by version vector), so their commit does not wait for a flush.
                PERFORM set_config('synchronous_commit', 'off', true);
                PERFORM pg_notify(p_channel, p) FROM unnest(payloads) AS p;
            END
            $procedure$
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

    /// One call, so one round trip: the procedure of migration 5 inserts the batch's events and
    /// whole states (a row already there is left as it is) and commits them, then notifies once
    /// per document that got a new row, in a transaction of its own. Parameters: database id,
    /// the events as five parallel arrays, the channel, the notices as three parallel arrays
    /// (collection, document, payload), the events' path heads, and the whole states as three
    /// parallel arrays (collection, document, record). Answers the new rows.
    static let commitBatch = """
        CALL drawtogether_commit_batch(
            $1::text, $2::text[], $3::text[], $4::int8[], $5::int8[], $6::bytea[], $7::text, $8::text[],
            $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::bytea[])
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

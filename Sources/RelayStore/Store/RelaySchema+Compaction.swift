/// The statements of compaction on the relay tier (see `RelayEventStore+Compaction`): what
/// clients hold, one document's rows read whole, and the new whole state stored with the rows
/// it covers deleted, all in one statement.
extension RelaySchema {
    /// Every row of one document and what each client heard from since a cutoff holds of it,
    /// in one statement (one snapshot): kind 0, an event (peer, counter, record, its SHA-256);
    /// kind 1, a whole state (record, digest); kind 2, a client's version (peer, last seen,
    /// the one-document version list). Parameters: database id, collection, document, cutoff.
    static let readCompaction = """
        SELECT 0::int4, e.peer, e.counter, e.record, sha256(e.record) FROM drawtogether_events e
        WHERE e.database_id = $1 AND e.collection = $2 AND e.document = $3
        UNION ALL
        SELECT 1::int4, NULL::int8, NULL::int8, s.record, s.digest FROM drawtogether_full_states s
        WHERE s.database_id = $1 AND s.collection = $2 AND s.document = $3
        UNION ALL
        SELECT 2::int4, p.peer, p.last_seen, p.vector, NULL::bytea FROM drawtogether_peer_versions p
        WHERE p.database_id = $1 AND p.collection = $2 AND p.document = $3 AND p.last_seen >= $4
        """

    /// One statement, so one transaction: stores the compacted whole state (kept if already
    /// there), deletes the event rows whose key *and content* (SHA-256 of the record) are among
    /// those it was made from, and the whole states it was made from (never itself), and
    /// notifies when the whole state is new. A row inserted or changed since the read is not
    /// among them and stays. Parameters: database id, collection, document, the record, the
    /// covered events as three parallel arrays (peer, counter, digest), the covered whole
    /// states' digests, the channel, the notice. Answers the rows stored, events deleted, whole
    /// states deleted and notices sent.
    static let storeCompaction = """
        WITH stored AS (
            INSERT INTO drawtogether_full_states(database_id, collection, document, digest, record)
            VALUES ($1, $2, $3, sha256($4), $4)
            ON CONFLICT (database_id, collection, document, digest) DO NOTHING
            RETURNING 1),
        events_removed AS (
            DELETE FROM drawtogether_events e
            USING unnest($5::int8[], $6::int8[], $7::bytea[]) AS k(peer, counter, digest)
            WHERE e.database_id = $1 AND e.collection = $2 AND e.document = $3
                AND e.peer = k.peer AND e.counter = k.counter AND sha256(e.record) = k.digest
            RETURNING 1),
        states_removed AS (
            DELETE FROM drawtogether_full_states s
            WHERE s.database_id = $1 AND s.collection = $2 AND s.document = $3
                AND s.digest = ANY($8::bytea[]) AND s.digest <> sha256($4)
            RETURNING 1),
        notified AS (
            SELECT pg_notify($9, $10) WHERE EXISTS (SELECT 1 FROM stored))
        SELECT (SELECT count(*) FROM stored), (SELECT count(*) FROM events_removed),
            (SELECT count(*) FROM states_removed), (SELECT count(*) FROM notified)
        """

    /// Writes what clients said they hold (one row per client and document; the latest vector
    /// written wins, which is safe: any vector a client ever sent is one it still holds).
    /// Parameters: database id, then five parallel arrays (collection, document, peer, vector,
    /// last seen), with no key twice.
    static let recordPeerVersions = """
        INSERT INTO drawtogether_peer_versions(database_id, collection, document, peer, vector, last_seen)
        SELECT $1, r.collection, r.document, r.peer, r.vector, r.last_seen
        FROM unnest($2::text[], $3::text[], $4::int8[], $5::bytea[], $6::int8[])
            AS r(collection, document, peer, vector, last_seen)
        ON CONFLICT (database_id, collection, document, peer) DO UPDATE
        SET vector = EXCLUDED.vector,
            last_seen = GREATEST(drawtogether_peer_versions.last_seen, EXCLUDED.last_seen)
        """

    /// Forgets clients not heard from about a document since a cutoff. Parameters: database
    /// id, cutoff.
    static let forgetPeerVersions = """
        DELETE FROM drawtogether_peer_versions WHERE database_id = $1 AND last_seen < $2
        """
}

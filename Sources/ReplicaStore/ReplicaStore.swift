/// ReplicaStore: the local-first document store — CRDT documents persisted in SQLite, a DQL
/// subset, transactions, observers and deltas for sync.
public enum ReplicaStore {}

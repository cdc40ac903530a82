/// The names a store directory's files have, and the schema this build reads, for tools that
/// look at a store without opening it (`drawtogether doctor`).
extension Replica {
    /// The schema version (SQLite `user_version`) this build reads and writes.
    public static var schemaVersion: Int { Int(ReplicaDatabase.schemaVersion) }
    public static var databaseFileName: String { ReplicaDatabase.fileName }
    /// The file a writer holds an exclusive `flock` on while it has the store open.
    public static var lockFileName: String { StoreLock.fileName }
}

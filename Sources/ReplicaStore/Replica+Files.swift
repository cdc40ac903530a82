#if canImport(Glibc)
    import Glibc
#endif

/// The names a store directory's files have, and the schema this build reads, for tools that
/// look at a store without opening it (`drawtogether doctor`).
extension Replica {
    /// The schema version (SQLite `user_version`) this build reads and writes.
    public static var schemaVersion: Int { Int(ReplicaDatabase.schemaVersion) }
    public static var databaseFileName: String { ReplicaDatabase.fileName }
    /// The file a writer holds an exclusive `flock` on while it has the store open.
    public static var lockFileName: String { StoreLock.fileName }

    /// The bytes an open of the store in `directory` reads: its database file and SQLite's log
    /// beside it (0 for a file that is not there). What a process about to open it sizes its
    /// heap by (`HeapRelease.prefault`).
    public static func storedBytes(inDirectory directory: String) -> Int {
        let database = directory + "/" + databaseFileName
        return [database, database + "-wal"].reduce(0) { total, path in
            var info = stat()
            return total + (stat(path, &info) == 0 ? Int(info.st_size) : 0)
        }
    }
}

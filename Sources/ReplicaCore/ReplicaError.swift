/// Everything the replica refuses, with the context a user needs to understand and fix it.
public enum ReplicaError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another process holds the writer's lock on the store directory.
    case storeInUse(directory: String, holderPID: Int32?)
    /// The file exists but is not a replica database (or its header is damaged).
    case notAReplica(path: String, reason: String)
    /// The replica database is ours but SQLite found a damaged page in it (`SQLITE_CORRUPT`).
    case damaged(path: String, detail: String)
    /// The database was written by a newer version of the program.
    case unsupportedSchemaVersion(path: String, found: Int32, supported: Int32)
    /// The disk refused a write to the replica file (full, a file size limit, an I/O error, a
    /// read-only file or directory); the transaction was rolled back.
    case cannotWrite(path: String, reason: String)
    /// The store directory or its lock file could not be created or opened.
    case cannotOpenStore(directory: String, reason: String)
    /// A write on a replica opened read-only.
    case readOnly(directory: String)
    /// `INSERT ... ON ID CONFLICT DO FAIL` (the default) met an existing document.
    case documentExists(collection: String, id: String)
    /// A statement names a parameter the arguments do not have.
    case missingArgument(name: String)
    /// A value in a statement or its arguments cannot be used where it appears.
    case invalidValue(reason: String)
    /// A statement that cannot be used here (for example observing an INSERT).
    case unsupportedStatement(reason: String)
    /// A delta from another peer breaks the rules every honest peer follows.
    case malformedDelta(reason: String)

    /// What happened, in one lower-case sentence without a full stop. What to do about it is the
    /// program's to say (it knows its own flags), not the store's.
    public var description: String {
        switch self {
        case .storeInUse(let directory, let pid):
            let holder = pid.map { "process \($0)" } ?? "another process"
            return "the replica in \(directory) is in use by \(holder)"
        case .notAReplica(let path, let reason):
            return "\(path) is not a DrawTogether replica (\(reason))"
        case .damaged(let path, let detail):
            return "the replica file \(path) is damaged (\(detail))"
        case .unsupportedSchemaVersion(let path, let found, let supported):
            return "\(path) has schema version \(found), but this program knows versions up to \(supported)"
        case .cannotWrite(let path, let reason):
            return "cannot write the replica file \(path): \(reason)"
        case .cannotOpenStore(let directory, let reason):
            return "cannot open the store directory \(directory): \(reason)"
        case .readOnly(let directory):
            return "the replica in \(directory) was opened read-only; writing needs the writer's lock"
        case .documentExists(let collection, let id):
            return "a document with _id '\(id)' already exists in \(collection); "
                + "add ON ID CONFLICT DO UPDATE to overwrite it"
        case .missingArgument(let name):
            return "the statement uses :\(name), but no argument named '\(name)' was given"
        case .invalidValue(let reason):
            return "invalid value: \(reason)"
        case .unsupportedStatement(let reason):
            return "unsupported statement: \(reason)"
        case .malformedDelta(let reason):
            return "a peer sent a malformed change set: \(reason)"
        }
    }
}

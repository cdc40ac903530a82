import CSQLite
import Glibc
import ReplicaCore

/// One prepared statement; finalized when released. Values are always bound, never spliced in.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    private let parameterCount: Int32
    let sql: String
    /// The database file, so that a damaged one is named in the error.
    let path: String

    init(connection: OpaquePointer, sql: String, path: String) throws {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(
                code: code, message: String(cString: sqlite3_errmsg(connection)), sql: sql,
                systemErrno: sqlite3_system_errno(connection)
            ).classified(path: path)
        }
        self.handle = statement
        self.connection = connection
        parameterCount = sqlite3_bind_parameter_count(statement)
        self.sql = sql
        self.path = path
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Runs the statement with these values and returns every row.
    @discardableResult
    func run(_ values: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        if let large = values.firstIndex(where: {
            if case .blob(let bytes) = $0 { bytes.count >= Self.inPlaceBlobBytes } else { false }
        }),
            case .blob(let bytes) = values[large]
        {
            // A large blob (an applied delta's row, a whole state's snapshot) is bound in place
            // for this run only, where binding it transient would copy megabytes first; the
            // binding is cleared before its buffer goes.
            return try bytes.withUnsafeBytes { buffer in
                defer {
                    sqlite3_reset(handle)
                    sqlite3_clear_bindings(handle)
                }
                return try run(values, inPlace: (Int32(large + 1), buffer))
            }
        }
        return try run(values, inPlace: nil)
    }

    /// Blobs this large are bound without a copy (see `run`).
    private static let inPlaceBlobBytes = 64 * 1024

    private func run(_ values: [SQLiteValue], inPlace: (index: Int32, buffer: UnsafeRawBufferPointer)?) throws
        -> [[SQLiteValue]]
    {
        sqlite3_reset(handle)
        try bindAll(values, except: inPlace?.index)
        if let inPlace {
            let code = sqlite3_bind_blob64(
                handle, inPlace.index, inPlace.buffer.baseAddress, sqlite3_uint64(inPlace.buffer.count), nil)
            guard code == SQLITE_OK else { throw failure(code) }
        }
        // Reset however it ends: a statement that failed part way (a `BEGIN IMMEDIATE` that met
        // another writer's lock) stays active until then, and an active statement makes every
        // later `COMMIT` of the connection fail.
        defer { sqlite3_reset(handle) }
        var rows: [[SQLiteValue]] = []
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw failure(code) }
            rows.append((0..<sqlite3_column_count(handle)).map(column))
        }
        return rows
    }

    /// Runs a statement that returns no rows once, with its parameters bound by `bind` straight
    /// from the caller's buffers (`SQLiteBindings`: no `SQLiteValue` array, no copy of a text or
    /// a blob), then clears the bindings before those buffers go. The log's `INSERT`, run by every
    /// commit, goes this way.
    func runInPlace(_ bind: (SQLiteBindings) throws -> Void) throws {
        sqlite3_reset(handle)
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        try bind(SQLiteBindings(statement: self, handle: handle))
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else { throw failure(code == SQLITE_ROW ? SQLITE_MISUSE : code) }
    }

    /// Runs the statement with these values and calls `body` with each row as it is stepped to,
    /// without collecting them (a reopen reads every stored row once).
    func forEachRow(_ values: [SQLiteValue] = [], _ body: (SQLiteRow) throws -> Void) throws {
        sqlite3_reset(handle)
        defer { sqlite3_reset(handle) }
        try bindAll(values)
        let row = SQLiteRow(handle: handle)
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw failure(code) }
            try body(row)
        }
    }

    /// Binds `values` to the parameters in order; a parameter left over is cleared (set to NULL)
    /// rather than keeping the value of the last run. When every parameter is bound, as on the
    /// replica's commit path, nothing is cleared.
    private func bindAll(_ values: [SQLiteValue], except skipped: Int32? = nil) throws {
        if values.count < Int(parameterCount) { sqlite3_clear_bindings(handle) }
        for index in values.indices where Int32(index + 1) != skipped {
            try bind(values[index], at: Int32(index + 1))
        }
    }

    private func bind(_ value: SQLiteValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
        case .text(var text):
            // The native string's bytes in place, where passing the String would copy it into a
            // C string first.
            code = text.withUTF8 { bytes in
                // An empty buffer may have no address, and a null pointer would bind NULL.
                guard let base = bytes.baseAddress else {
                    return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
                }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
                    sqlite3_bind_text(handle, index, chars, Int32(bytes.count), csqlite_transient())
                }
            }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { buffer in
                sqlite3_bind_blob(handle, index, buffer.baseAddress, Int32(buffer.count), csqlite_transient())
            }
        }
        guard code == SQLITE_OK else { throw failure(code) }
    }

    private func column(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_TEXT: return .text(sqlite3_column_text(handle, index).map { String(cString: $0) } ?? "")
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count > 0, let base = sqlite3_column_blob(handle, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
        case SQLITE_NULL: return .null
        default: return .text(sqlite3_column_text(handle, index).map { String(cString: $0) } ?? "")
        }
    }

    fileprivate func failure(_ code: Int32) -> any Error {
        SQLiteError(
            code: code, message: String(cString: sqlite3_errmsg(connection)), sql: sql,
            systemErrno: sqlite3_system_errno(connection)
        ).classified(path: path)
    }
}

/// The parameters of one `runInPlace` run, bound without copies: SQLite reads the buffers
/// only while the statement steps, inside that call (`SQLITE_STATIC`).
struct SQLiteBindings {
    fileprivate let statement: SQLiteStatement
    fileprivate let handle: OpaquePointer

    func integer(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Text as UTF-8 bytes; an empty buffer binds the empty text, never NULL.
    func text(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            return try check(sqlite3_bind_text(handle, index, "", 0, csqlite_transient()))
        }
        try check(
            base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
                sqlite3_bind_text(handle, index, chars, Int32(bytes.count), csqlite_static())
            })
    }

    /// A blob; an empty buffer binds the empty blob, never NULL.
    func blob(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            return try check(sqlite3_bind_zeroblob(handle, index, 0))
        }
        try check(sqlite3_bind_blob64(handle, index, base, sqlite3_uint64(bytes.count), csqlite_static()))
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw statement.failure(code) }
    }
}

extension SQLiteError {
    /// A damaged page (`SQLITE_CORRUPT`, found only when a statement reads it, so possibly long
    /// after the open) becomes `ReplicaError.damaged`, and a write the disk refused (full, a file
    /// size limit, an I/O error, a read-only file) `ReplicaError.cannotWrite`, each naming the
    /// file: the SQL that ran into it would tell the user nothing. Everything else stays as it is.
    func classified(path: String) -> any Error {
        switch code & 0xFF {
        case SQLITE_CORRUPT:
            return ReplicaError.damaged(path: path, detail: message)
        case SQLITE_FULL:
            return ReplicaError.cannotWrite(
                path: path, reason: StoreFiles.reason(errno: systemErrno == 0 ? ENOSPC : systemErrno))
        case SQLITE_IOERR:
            // SQLite does not always keep the errno of a failed write (a file size limit gives
            // an I/O error with none), so the likely causes are named.
            let reason =
                systemErrno == 0
                ? "a write failed (the disk is full, a file size limit was reached, or the disk has an I/O error)"
                : StoreFiles.reason(errno: systemErrno)
            return ReplicaError.cannotWrite(path: path, reason: reason)
        case SQLITE_READONLY:
            return ReplicaError.cannotWrite(path: path, reason: "the file or its directory is read-only")
        default:
            return self
        }
    }
}

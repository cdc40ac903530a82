import CSQLite

/// The current row of a statement that `SQLiteStatement.forEachRow` is stepping through; valid
/// only inside that call. Each accessor gives nil for a column of another type.
struct SQLiteRow {
    let handle: OpaquePointer

    func integer(_ index: Int32) -> Int64? {
        sqlite3_column_type(handle, index) == SQLITE_INTEGER ? sqlite3_column_int64(handle, index) : nil
    }

    func text(_ index: Int32) -> String? {
        guard sqlite3_column_type(handle, index) == SQLITE_TEXT, let text = sqlite3_column_text(handle, index)
        else { return nil }
        return String(cString: text)
    }

    func blob(_ index: Int32) -> [UInt8]? {
        guard sqlite3_column_type(handle, index) == SQLITE_BLOB else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let base = sqlite3_column_blob(handle, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }
}

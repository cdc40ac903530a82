import ReplicaCore

/// A value bound to, or read from, a SQLite statement.
enum SQLiteValue: Equatable {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])

    var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    var blob: [UInt8]? {
        if case .blob(let value) = self { return value }
        return nil
    }
}

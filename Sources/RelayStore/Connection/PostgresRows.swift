import CLibPQ

/// The rows of one statement's result, copied out of the `PGresult` (which is cleared at once),
/// in binary format: `bytea` as its bytes, `int8` as 8 big-endian bytes, `text` as UTF-8.
public struct PostgresRows: Equatable, Sendable {
    public var rows: [[[UInt8]?]]
    /// The number of rows the statement changed (`PQcmdTuples`), 0 when it says nothing.
    public var affected: Int

    public init(rows: [[[UInt8]?]], affected: Int) {
        self.rows = rows
        self.affected = affected
    }

    /// Copies a result; the caller clears it.
    init(copying result: OpaquePointer) {
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        var rows: [[[UInt8]?]] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [[UInt8]?] = []
            for column in 0..<columnCount {
                if PQgetisnull(result, row, column) == 1 {
                    values.append(nil)
                    continue
                }
                let length = Int(PQgetlength(result, row, column))
                let start = PQgetvalue(result, row, column)
                values.append(
                    start.map { pointer in
                        pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                            Array(UnsafeBufferPointer(start: $0, count: length))
                        }
                    } ?? [])
            }
            rows.append(values)
        }
        self.rows = rows
        affected = Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    public func bytes(_ row: Int, _ column: Int) -> [UInt8]? { rows[row][column] }

    public func text(_ row: Int, _ column: Int) -> String? {
        rows[row][column].map { String(decoding: $0, as: UTF8.self) }
    }

    /// An `int8` (or a `count(*)`) column.
    public func int64(_ row: Int, _ column: Int) -> Int64? {
        guard let bytes = rows[row][column], bytes.count == 8 else { return nil }
        return bytes.reduce(0) { $0 << 8 | Int64($1) }
    }

    /// An `int4` column.
    public func int32(_ row: Int, _ column: Int) -> Int32? {
        guard let bytes = rows[row][column], bytes.count == 4 else { return nil }
        return bytes.reduce(0) { $0 << 8 | Int32($1) }
    }
}

import CSQLite
import FoundationEssentials

/// The floor a local write is compared with (`replica.floor.commit`): the same bytes as the
/// replica's log row of one write, inserted by bare SQLite into a table of the same shape, one
/// transaction each, every statement prepared once, in WAL mode with `synchronous=NORMAL` as the
/// replica runs. No CRDT, no DQL, no observers: what a commit of those bytes costs on this disk.
struct FloorCommit {
    let report: FigureReport

    /// What a run of the floor's commits took: the seconds in all, the CPU of this thread, and
    /// (when each was timed) every commit's seconds.
    struct Commits {
        var seconds = 0.0
        var cpuSeconds = 0.0
        var each: [Double] = []
    }

    /// Inserts `record` `count` times into a fresh database under `directory`. With
    /// `autoVacuum` the file is in incremental auto-vacuum mode, as the replica's is (so that a
    /// compaction's freed pages go back to the file system): `replica.floor.auto_vacuum`, the
    /// same commits paying for the pointer-map pages that mode keeps.
    ///
    /// Returns the microseconds a commit took (with SQLite's checkpoints inside).
    ///
    /// `figure` names the result (`live.floor.commit` for the floor of a live apply, measured
    /// with the bytes of the row an applied update is stored as; `replica.overlap.floor.apply`
    /// for that of a whole delta's apply, whose value is one commit's time, the median of
    /// `count`), and `note` says what was committed; `autoVacuum` picks the defaults.
    @discardableResult
    func run(
        record: [UInt8], count: Int, directory: String, autoVacuum: Bool = false, figure: String? = nil,
        note: String? = nil, medianOfOne: Bool = false
    ) throws -> Double {
        let inline = try commits(
            record: record, count: count, path: directory + "/\(Self.fileName(autoVacuum, figure)).sqlite",
            autoVacuum: autoVacuum, checkpointsApart: false, timesEach: medianOfOne)
        return try add(
            inline, record: record, count: count, directory: directory, autoVacuum: autoVacuum,
            figure: figure,
            note: note, medianOfOne: medianOfOne)
    }

    /// Reports `inline`, `count` commits of `record` with SQLite's checkpoints inside them
    /// (measured by `run`, or by a caller that timed them beside its own writes), and measures
    /// the same commits with the checkpoints apart. Returns the microseconds a commit took.
    func add(
        _ inline: Commits, record: [UInt8], count: Int, directory: String, autoVacuum: Bool = false,
        figure: String? = nil, note: String? = nil, medianOfOne: Bool = false
    ) throws -> Double {
        // The same commits with SQLite's checkpoints of its log run between them, untimed, as
        // the replica's idle steps run them (`WALCheckpointer`): what the commits alone cost.
        // Fewer commits than come between two checkpoints would be the same commits again.
        let apart =
            count < Self.commitsPerCheckpoint
            ? inline
            : try commits(
                record: record, count: count,
                path: directory + "/\(Self.fileName(autoVacuum, figure))-apart.sqlite",
                autoVacuum: autoVacuum, checkpointsApart: true, timesEach: false)
        let value = medianOfOne ? inline.each.sorted()[inline.each.count / 2] : inline.seconds
        let perWrite = inline.seconds * 1e6 / Double(max(1, count))
        report.add(
            figure ?? (autoVacuum ? "replica.floor.auto_vacuum" : "replica.floor.commit"), value, "s",
            [
                ("writes", .number(Double(count))),
                ("us_per_write", .number(perWrite)),
                ("cpu_us_per_write", .number(inline.cpuSeconds * 1e6 / Double(max(1, count)))),
                ("us_per_write_checkpoints_apart", .number(apart.seconds * 1e6 / Double(max(1, count)))),
                ("record_bytes", .number(Double(record.count))),
                (
                    "note",
                    .text(
                        note
                            ?? (autoVacuum
                                ? "as replica.floor.commit, in incremental auto-vacuum mode as the replica's file is"
                                : figure != nil
                                    ? "bare SQLite: the bytes of one applied update's log row, one prepared transaction each, WAL/NORMAL"
                                    : "bare SQLite: the bytes of one write's log row, one prepared transaction each, WAL/NORMAL")
                    )
                ),
            ])
        return perWrite
    }

    /// The name of the floor's database file under the run's directory.
    static func fileName(_ autoVacuum: Bool, _ figure: String?) -> String {
        (autoVacuum ? "floor-auto-vacuum" : "floor") + (figure.map { "-" + $0 } ?? "")
    }

    /// SQLite's log checkpointed every this many commits when checkpoints are kept apart: for
    /// rows of a page or so, about as often as the replica's idle steps checkpoint (500 pages).
    private static let commitsPerCheckpoint = 300

    /// `count` commits of `record` into a fresh database at `path` (with `timesEach`, each one
    /// timed too); with `checkpointsApart` SQLite's automatic checkpoint is off and one runs every
    /// `commitsPerCheckpoint` commits outside the timing (`seconds` is then the commits' sum).
    private func commits(
        record: [UInt8], count: Int, path: String, autoVacuum: Bool, checkpointsApart: Bool, timesEach: Bool
    ) throws -> Commits {
        let floor = try FloorDatabase(path: path, autoVacuum: autoVacuum, checkpointsApart: checkpointsApart)
        var each: [Double] = []
        if timesEach { each.reserveCapacity(count) }
        var checkpointSeconds = 0.0
        let (_, seconds, cpuSeconds) = try BenchClock.measureWithCPU {
            for index in 0..<count {
                let start = timesEach ? BenchClock.now() : 0
                try floor.commit(record)
                if timesEach { each.append(BenchClock.seconds(since: start)) }
                if checkpointsApart, (index + 1) % Self.commitsPerCheckpoint == 0 {
                    checkpointSeconds += BenchClock.measure { floor.checkpoint() }.seconds
                }
            }
        }
        return Commits(seconds: seconds - checkpointSeconds, cpuSeconds: cpuSeconds, each: each)
    }

    /// The record of the last log row of the replica in `directory`, read through a connection
    /// of its own (the replica may stay open: it is in WAL mode).
    static func lastLogRecord(ofStoreIn directory: String) throws -> [UInt8] {
        var handle: OpaquePointer?
        guard
            sqlite3_open_v2(directory + "/replica.sqlite", &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK,
            let database = handle
        else { throw BenchError.setup("cannot open the replica to read its log") }
        defer { sqlite3_close_v2(database) }
        var statement: OpaquePointer?
        guard
            sqlite3_prepare_v2(
                database, "SELECT record FROM batches ORDER BY sequence DESC LIMIT 1", -1, &statement, nil)
                == SQLITE_OK, let statement
        else { throw BenchError.setup("floor: \(String(cString: sqlite3_errmsg(database)))") }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let base = sqlite3_column_blob(statement, 0) else {
            throw BenchError.setup("the replica has no log row")
        }
        return Array(UnsafeRawBufferPointer(start: base, count: Int(sqlite3_column_bytes(statement, 0))))
    }
}

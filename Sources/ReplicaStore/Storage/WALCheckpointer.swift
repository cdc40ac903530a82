import CSQLite

/// When SQLite's checkpoints of the write-ahead log run (copying committed pages back into the
/// database file and syncing it, so the log can start again from its beginning): in the
/// replica's idle steps, not inside a commit.
///
/// By default SQLite checkpoints inside the commit that brings the log past 1,000 pages: that
/// commit copies them all and syncs both files, about 3 ms on this machine, once every few
/// hundred single-update commits, a third of the time of 10,000 of them. Here SQLite's WAL hook
/// (which replaces its automatic checkpoint) tells this object how long the log is after each
/// commit; past `idlePages` (500 by default) the replica's next background step checkpoints
/// (`Replica.backgroundStep`, which the loop runs when it is idle, and within 200 ms under a
/// stream of commits). A commit runs one itself only past twice that, SQLite's own 1,000 pages,
/// for a writer whose loop does not idle (a bulk import with no loop around it): such a writer
/// checkpoints as SQLite would, and the log stays bounded either way. (With the commits' bound at
/// 2,000 pages, the 50,000 writes of the bench's overwrite took 3% longer: a longer log is slower
/// to write and to read through.)
///
/// A commit is as durable as before (it is in the log, which NORMAL keeps across a crash of the
/// process, when `COMMIT` returns), and a process killed in the middle of a checkpoint loses
/// nothing: the log still holds every page the checkpoint had not finished with.
final class WALCheckpointer {
    /// The log's length, in pages, past which the next idle step checkpoints
    /// (`ReplicaConfiguration.logCheckpointPages`).
    let idlePages: Int32
    /// The log's length past which a commit checkpoints after all.
    var commitPages: Int32 { 2 * idlePages }

    /// The log's length after the last commit, or 0 once a checkpoint ran since.
    private(set) var pages: Int32 = 0
    /// Checkpoints run by commits (the loop did not run one in time).
    private(set) var checkpointsInCommits = 0

    init(idlePages: Int) {
        self.idlePages = Int32(clamping: max(idlePages, 1))
    }

    var isDue: Bool { pages >= idlePages }

    /// Called by SQLite on the committing thread after each commit, inside it.
    fileprivate func committed(pages: Int32, database: OpaquePointer) {
        self.pages = pages
        guard pages >= commitPages else { return }
        checkpointsInCommits += 1
        // One that cannot run now (another process is checkpointing) is left to the next idle
        // step.
        if Self.checkpointPassively(database) { self.pages = 0 }
    }

    /// The idle step's checkpoint, on the writer's connection between transactions. Whether it
    /// ran or could not run now, nothing is due until the next commit says how long the log is:
    /// a checkpoint copies what no reader still needs, and a reader in another process
    /// (`Replica.openReadOnly`) can keep the log from starting again; such a log is then tried
    /// once a commit, as SQLite tries it, and not again on every turn of an idle loop.
    func checkpoint(_ connection: SQLiteConnection) {
        _ = try? connection.withHandle(Self.checkpointPassively)
        pages = 0
    }

    /// A passive checkpoint of the log, as SQLite's automatic one is: copies what no reader
    /// still needs into the database file. False when it could not run.
    private static func checkpointPassively(_ database: OpaquePointer) -> Bool {
        sqlite3_wal_checkpoint_v2(database, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil) == SQLITE_OK
    }
}

extension SQLiteConnection {
    /// Hands the log's length after each commit of this connection to `checkpointer`, in place
    /// of SQLite's automatic checkpoint inside the commit; nil takes the hook off again (and
    /// leaves no automatic checkpoint either). The checkpointer must outlive the hook: its owner
    /// keeps it, and takes the hook off before it lets go of either.
    func checkpointWhenIdle(_ checkpointer: WALCheckpointer?) {
        _ = try? withHandle { handle in
            guard let checkpointer else {
                sqlite3_wal_hook(handle, nil, nil)
                return
            }
            sqlite3_wal_hook(
                handle,
                { context, database, _, pages in
                    guard let context, let database else { return SQLITE_OK }
                    Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue()
                        .committed(pages: pages, database: database)
                    return SQLITE_OK
                }, Unmanaged.passUnretained(checkpointer).toOpaque())
        }
    }
}

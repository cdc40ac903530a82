import Dispatch
import ReplicaCore

/// The received blocks of a large delta written to the log on another thread while the delta
/// merges in memory (DECISIONS.md, "A large delta is stored while it merges"): the transaction
/// is begun there and the blocks go in as rows of their own; the replica's thread merges, waits
/// (`finish`), stores what the merge changed besides them in the same transaction and commits.
/// On two cores the write, about a fifth of a large apply, costs no wall time.
///
/// Unchecked Sendable: `database` is used by the writing thread from `start` until the
/// semaphore is signalled, and by no other thread in that time (the replica's thread merges
/// in memory, touching no SQLite, and calls `finish`, which waits for the signal, before it uses
/// the database again). `failure` is set by the writing thread before it signals and read after
/// the wait; everything else is set before the write starts.
final class ReceivedBlockWrite: @unchecked Sendable {
    private let database: ReplicaDatabase
    private let blocks: [(key: DocumentKey, block: ArraySlice<UInt8>)]
    private let clock: HybridTimestamp
    private let written = DispatchSemaphore(value: 0)
    private var failure: (any Error)?

    private init(
        database: ReplicaDatabase, blocks: [(key: DocumentKey, block: ArraySlice<UInt8>)],
        clock: HybridTimestamp
    ) {
        self.database = database
        self.blocks = blocks
        self.clock = clock
    }

    /// Starts writing `blocks` (`ReplicaState.newBlocks(of:)`) with `clock` when they hold at
    /// least `minimumBytes` (`ReplicaConfiguration.concurrentWriteMinimumBytes`); nil when the
    /// caller should store the delta in one go after the merge.
    static func start(
        _ blocks: [(key: DocumentKey, block: ArraySlice<UInt8>)]?, database: ReplicaDatabase,
        clock: HybridTimestamp,
        minimumBytes: Int
    ) -> ReceivedBlockWrite? {
        guard let blocks, !blocks.isEmpty, blocks.reduce(0, { $0 + $1.block.count }) >= minimumBytes
        else { return nil }
        let write = ReceivedBlockWrite(database: database, blocks: blocks, clock: clock)
        DispatchQueue.global(qos: .userInitiated).async { write.run() }
        return write
    }

    /// Begins the transaction and appends the blocks; a failure is rolled back here and kept
    /// for `finish`.
    private func run() {
        defer { written.signal() }
        do {
            try database.connection.begin()
        } catch {
            failure = error
            return
        }
        do {
            try database.append(blocks: blocks, clock: clock)
        } catch {
            database.connection.rollback()
            failure = error
        }
    }

    /// Waits for the write. Returns with the transaction open and the blocks in it; throws the
    /// write's error, with nothing begun or all of it rolled back.
    func finish() throws {
        written.wait()
        if let failure { throw failure }
    }
}

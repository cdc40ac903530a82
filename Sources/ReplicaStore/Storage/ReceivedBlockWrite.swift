import Dispatch
import ReplicaCore

/// A large delta's transaction written on another thread while the replica's thread works in
/// memory (DECISIONS.md, "A large delta is stored while it merges"). Two steps go there:
///
/// 1. `start`: `BEGIN IMMEDIATE` and the received blocks, each a row of its own, while the delta
///    merges;
/// 2. `commit`: `COMMIT`, once the replica's thread has appended what the merge changed besides
///    them, while it works out what observers are told.
///
/// The replica's thread waits for each (`finish`) before it goes on with the database. On two
/// cores the blocks' rows and the commit, about a third of a large apply, cost little wall time.
///
/// Unchecked Sendable: `database` is used by the writing thread between `start` (or `commit`)
/// and the signal that ends that step, and by no other thread in that time: the replica's
/// thread touches no SQLite until `finish` has waited for the signal. `failure` is set by the
/// writing thread before it signals and read after the wait; everything else is set before a
/// step starts.
final class ReceivedBlockWrite: @unchecked Sendable {
    private let database: ReplicaDatabase
    private let finished = DispatchSemaphore(value: 0)
    private var failure: (any Error)?

    private init(database: ReplicaDatabase) {
        self.database = database
    }

    /// Starts writing `blocks` (`ReplicaState.newBlocks(of:)`) with `clock` when they hold at
    /// least `minimumBytes` (`ReplicaConfiguration.concurrentWriteMinimumBytes`); nil when the
    /// caller should store the delta in one go after the merge.
    static func start(
        _ blocks: [(key: DocumentKey, block: ArraySlice<UInt8>)], database: ReplicaDatabase,
        clock: HybridTimestamp, minimumBytes: Int
    ) -> ReceivedBlockWrite? {
        guard !blocks.isEmpty, blocks.reduce(0, { $0 + $1.block.count }) >= minimumBytes
        else { return nil }
        let write = ReceivedBlockWrite(database: database)
        write.run { database in
            try database.connection.begin()
            do {
                try database.append(blocks: blocks, clock: clock)
            } catch {
                database.connection.rollback()
                throw error
            }
        }
        return write
    }

    /// Starts the `COMMIT` (after `finish` returned and the caller appended the rest).
    func commit() {
        run { database in try database.connection.commitTransaction() }
    }

    /// Waits for the step under way. After `start`'s, returns with the transaction open and the
    /// blocks in it; after `commit`'s, with it committed. Throws the step's error, with nothing
    /// begun or all of it rolled back.
    func finish() throws {
        finished.wait()
        if let failure { throw failure }
    }

    private func run(_ step: @escaping @Sendable (ReplicaDatabase) throws -> Void) {
        failure = nil
        DispatchQueue.global(qos: .userInitiated).async {
            defer { self.finished.signal() }
            do {
                try step(self.database)
            } catch {
                self.failure = error
            }
        }
    }
}

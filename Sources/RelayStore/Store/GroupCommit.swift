import EventRuntime
import ReplicaCore

/// Group commit: every delta handed in during one turn of the loop goes into one transaction,
/// and each delta's acknowledgement runs after that transaction's COMMIT (or with its failure,
/// then nothing of it may be acknowledged). While a transaction is on the wire, new deltas wait
/// and go together into the next one, so batches grow with load.
public final class GroupCommit {
    private let store: RelayEventStore
    private let loop: any EventLoop
    private var pending: [(delta: ReplicaDelta, acknowledge: (Result<Void, PostgresError>) -> Void)] = []
    private var isScheduled = false
    private var isCommitting = false

    /// Deltas per transaction so far, for the bench's `relay.pg.commit_batch`.
    public private(set) var transactions = 0
    public private(set) var committedDeltas = 0
    /// Called after each transaction that committed, with how many deltas it held.
    public var onCommitted: (Int) -> Void = { _ in }

    public init(store: RelayEventStore, loop: any EventLoop) {
        self.store = store
        self.loop = loop
    }

    /// Queues `delta`; `acknowledge` runs on the loop once it is committed (or failed).
    public func submit(_ delta: ReplicaDelta, acknowledge: @escaping (Result<Void, PostgresError>) -> Void) {
        pending.append((delta, acknowledge))
        guard !isScheduled, !isCommitting else { return }
        isScheduled = true
        // A timer due now runs after the descriptors of this turn were served.
        loop.schedule(at: loop.now) { [weak self] in
            self?.isScheduled = false
            self?.commitPending()
        }
    }

    private func commitPending() {
        guard !isCommitting, !pending.isEmpty else { return }
        let batch = pending
        pending = []
        isCommitting = true
        store.commit(batch.map(\.delta)) { [weak self] outcome in
            guard let self else { return }
            isCommitting = false
            transactions += 1
            committedDeltas += batch.count
            let result = outcome.map { _ in () }
            if case .success = outcome { onCommitted(batch.count) }
            for entry in batch { entry.acknowledge(result) }
            commitPending()
        }
    }
}

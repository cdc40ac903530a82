import EventRuntime

/// Group commit: every item (a client's delta) handed in during one turn of the loop goes into
/// one transaction, and each item's acknowledgement runs after that transaction's COMMIT, with
/// the outcome the commit gave it. While a transaction is on the wire (an asynchronous store),
/// new items wait and go together into the next one, so batches grow with load.
///
/// The store is the `commit` closure: it gets a batch and calls `finished` once, with one
/// outcome per item in order and how many items the transaction held (0 when it failed or
/// nothing needed storing). A relay on PostgreSQL commits over libpq (`RelayStore`); a relay on
/// its SQLite replica commits at once (`ReplicaSyncAdapter.commitInGroups`).
public final class GroupCommit<Item, Outcome> {
    public typealias Commit = (
        _ batch: [Item], _ finished: @escaping (_ outcomes: [Outcome], _ committed: Int) -> Void
    )
        -> Void

    private let loop: any EventLoop
    private let commit: Commit
    private var pending: [(item: Item, acknowledge: (Outcome) -> Void)] = []
    private var isScheduled = false
    private var isCommitting = false

    /// Transactions that held something, and the items they held (deltas per transaction: the
    /// bench's commit batch).
    public private(set) var transactions = 0
    public private(set) var committedDeltas = 0
    /// Called after each transaction that held something, with how many items it held.
    public var onCommitted: (Int) -> Void = { _ in }
    /// Called after every batch's acknowledgements ran (whatever the commit gave them), so a
    /// caller can report a batch's outcomes together.
    public var onBatchFinished: () -> Void = {}

    public init(loop: any EventLoop, commit: @escaping Commit) {
        self.loop = loop
        self.commit = commit
    }

    /// Queues `item`; `acknowledge` runs on the loop once its transaction committed (or failed).
    public func submit(_ item: Item, acknowledge: @escaping (Outcome) -> Void) {
        pending.append((item, acknowledge))
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
        commit(batch.map(\.item)) { [weak self] outcomes, committed in
            guard let self else { return }
            isCommitting = false
            if committed > 0 {
                transactions += 1
                committedDeltas += committed
                onCommitted(committed)
            }
            for (entry, outcome) in zip(batch, outcomes) { entry.acknowledge(outcome) }
            onBatchFinished()
            commitPending()
        }
    }
}

import EventRuntime
import ReplicaCore
import ReplicaSync

/// The relay's group commit on PostgreSQL (see `GroupCommit`): a turn's deltas (and whole
/// states) in one transaction of the event store, each acknowledged after its COMMIT or with
/// its failure (then nothing of it may be acknowledged).
public typealias PostgresGroupCommit = GroupCommit<RelayWrite, Result<Void, PostgresError>>

extension GroupCommit where Item == RelayWrite, Outcome == Result<Void, PostgresError> {
    public convenience init(store: RelayEventStore, loop: any EventLoop) {
        self.init(loop: loop) { batch, finished in
            store.commit(batch) { outcome in
                let result = outcome.map { _ in () }
                let committed = (try? outcome.get()) == nil ? 0 : batch.count
                finished(Array(repeating: result, count: batch.count), committed)
            }
        }
    }
}

import Glibc
import ReplicaCore

/// The local-first document store of one peer: CRDT documents in memory (`ReplicaState`), every
/// change persisted to SQLite in one transaction, DQL statements, observers and deltas for sync.
///
/// A writer holds the store directory's lock; read-only opens load the committed state without it.
/// Use it from one thread (the app's event loop).
public final class Replica {
    public let directory: String
    public let peerID: PeerID
    public let isReadOnly: Bool
    /// The directory and files this open took group and other permissions from (see
    /// `StoreFiles`); empty when they were private already. The program says so once: the next
    /// open finds nothing to change.
    public let tightenedPaths: [String]
    let configuration: ReplicaConfiguration
    let database: ReplicaDatabase
    private let lock: StoreLock?
    var state: ReplicaState {
        didSet { stateRevision &+= 1 }
    }
    /// Moves on whenever the documents in memory change (any commit, apply, adoption or
    /// compaction): an answer derived from them, such as the versions or a delta a relay sends
    /// to several clients, still holds while it has not moved.
    public private(set) var stateRevision: UInt64 = 0
    public private(set) var subscriptions: [ReplicaSubscription]
    var observers = HandlerTable<Observer>()
    var commitHandlers = HandlerTable<CommitHandler>()
    var nextHandlerID = 0
    var pendingDeliveries: [() -> Void] = []
    var isDelivering = false
    private(set) var activeTransaction: ReplicaTransaction?
    /// Per document, its snapshot and how much log follows it: what the checkpoint works from.
    var storedDocuments: [DocumentKey: ReplicaDatabase.StoredDocument] = [:]
    var checkpointJob: CheckpointJob?
    /// Documents whose log a commit has grown past the checkpoint threshold.
    var dueDocuments: Set<DocumentKey> = []
    /// What each peer says it holds, per document (see `Replica+Compaction`).
    var peerVersions = PeerVersionTable()
    /// Documents whose stable vector may have grown since they were last looked at.
    var compactionCandidates: Set<DocumentKey> = []
    /// A compacted snapshot freed pages that background steps give back to the file system.
    var vacuumDue = false
    /// Called when something other than a commit leaves background work (peer versions that
    /// may let a document compact); `ReplicaIdleSteps` schedules a step.
    public var backgroundWorkAppeared: (() -> Void)?

    /// Opens (creating if needed) the store in `directory` for writing; takes the writer's lock.
    public convenience init(directory: String, configuration: ReplicaConfiguration = .init()) throws {
        if let failure = Self.createDirectories(directory) {
            throw ReplicaError.cannotOpenStore(
                directory: directory,
                reason: "cannot create it (\(String(cString: strerror(failure))))")
        }
        let lock = try StoreLock(directory: directory)
        try self.init(directory: directory, configuration: configuration, lock: lock)
    }

    /// Opens an existing store to read, while another process may be writing it.
    public static func openReadOnly(directory: String, configuration: ReplicaConfiguration = .init()) throws
        -> Replica
    {
        try Replica(directory: directory, configuration: configuration, lock: nil)
    }

    private init(directory: String, configuration: ReplicaConfiguration, lock: StoreLock?) throws {
        self.directory = directory
        self.configuration = configuration
        self.lock = lock
        isReadOnly = lock == nil
        tightenedPaths = StoreFiles.tighten(directory: directory)
        database = try ReplicaDatabase(
            directory: directory, readOnly: lock == nil,
            busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds,
            logCheckpointPages: configuration.logCheckpointPages)
        let peerID: PeerID
        if let stored = try database.metaInteger("peer_id") {
            peerID = PeerID(UInt64(bitPattern: stored))
        } else if lock != nil {
            var generator = SystemRandomNumberGenerator()
            peerID = configuration.peerID ?? PeerID.random(using: &generator)
            try database.setMeta("peer_id", Int64(bitPattern: peerID.rawValue))
        } else {
            throw ReplicaError.notAReplica(path: database.path, reason: "it has no peer id")
        }
        self.peerID = peerID
        (state, storedDocuments) = try Self.loadCommittedState(
            database, peerID: peerID, configuration: configuration)
        subscriptions = try database.loadSubscriptions()
        dueDocuments = Set(storedDocuments.filter { isCheckpointDue($0.value) }.keys)
        peerVersions = try database.loadPeerVersions()
        if lock != nil { compactionCandidates = Set(state.allDocuments.keys) }
    }

    /// Creates the directory and any missing parents (`mkdir -p`). Nil when it exists now, or the
    /// `errno` of the step that failed, which `strerror` says in words ("Permission denied",
    /// "File exists" for a file in the way).
    private static func createDirectories(_ path: String) -> Int32? {
        guard !path.isEmpty else { return ENOENT }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, StoreFiles.directoryMode) != 0 {
                let failure = errno
                var status = stat()
                guard failure == EEXIST, stat(prefix, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                    return failure
                }
            }
            prefix += "/"
        }
        return nil
    }

    /// The state SQLite has committed: every event, and the clock as of the last commit (the
    /// metadata's, or the log's when a commit after the last checkpoint moved it on).
    private static func loadCommittedState(
        _ database: ReplicaDatabase, peerID: PeerID, configuration: ReplicaConfiguration
    ) throws -> (ReplicaState, [DocumentKey: ReplicaDatabase.StoredDocument]) {
        let stored = HybridTimestamp(
            milliseconds: try database.metaInteger("clock_milliseconds") ?? 0,
            counter: UInt32(truncatingIfNeeded: try database.metaInteger("clock_counter") ?? 0))
        var state = ReplicaState(peerID: peerID)
        let (documents, logged) = try database.load(into: &state)
        state.clock = HybridClock(
            latest: max(stored, logged), maximumForwardDrift: configuration.maximumClockDrift)
        return (state, documents)
    }

    /// Puts memory back to what SQLite committed, after a transaction failed part way.
    ///
    /// The in-memory state is a cache of the database, so a failure (rare: a refused statement,
    /// a full disk) reloads it rather than every commit paying for a snapshot: a copy-on-write
    /// snapshot made each write copy the whole document it touched.
    func restoreCommittedState(after failure: any Error) throws -> Never {
        do {
            (state, storedDocuments) = try Self.loadCommittedState(
                database, peerID: peerID, configuration: configuration)
            checkpointJob = nil
            dueDocuments = Set(storedDocuments.filter { isCheckpointDue($0.value) }.keys)
        } catch {
            // A damaged file fails the reload too; that says more than the failed transaction.
            if case .damaged? = error as? ReplicaError { throw error }
            throw ReplicaError.cannotOpenStore(
                directory: directory,
                reason: "reloading after a failed transaction (\(failure)) failed: \(error)")
        }
        throw failure
    }

    /// Runs one statement; a mutation is its own transaction.
    @discardableResult
    public func execute(_ statement: DQLStatement, arguments: [String: DocumentValue] = [:]) throws
        -> QueryResult
    {
        if case .select(let select) = statement { return try state.select(select, arguments: arguments) }
        return try write { try $0.execute(statement, arguments: arguments) }
    }

    /// Runs `body` as one transaction: everything it wrote is committed together, or, if it
    /// throws, nothing is (SQLite and memory alike). Observers hear of it after the commit.
    public func write<T>(_ body: (ReplicaTransaction) throws -> T) throws -> T {
        if isReadOnly { throw ReplicaError.readOnly(directory: directory) }
        if let activeTransaction { return try body(activeTransaction) }  // nested: part of the outer one
        let transaction = ReplicaTransaction(replica: self)
        activeTransaction = transaction
        var changed = CommittedChanges()
        let result: T
        do {
            // Closed before observers run, so a handler that writes starts a transaction of its own.
            defer {
                activeTransaction = nil
                transaction.isOpen = false
            }
            result = try database.connection.transaction {
                let result = try body(transaction)
                changed = try persistUnsaved()
                return result
            }
        } catch {
            try restoreCommittedState(after: error)
        }
        didCommit(changed, isLocal: true)
        return result
    }

    /// Appends every changed event, one log row per document, with the clock; the caller holds
    /// the SQLite transaction (a failure reloads what is committed, counts included). Returns what
    /// the observers and commit handlers are told of it (see `CommittedChanges`).
    func persistUnsaved() throws -> CommittedChanges {
        committedChanges(of: try storeUnsaved())
    }

    /// The first half of `persistUnsaved`: appends the changes and returns them.
    func storeUnsaved() throws -> [ReplicaState.UnsavedDocument] {
        // Taken in place (a mutating call), not asked first: reading a property of the state
        // stored in this class copied the whole state out (a retain and a release of each of
        // its tables, on every commit).
        let changes = state.takeUnsaved()
        guard !changes.isEmpty else { return [] }
        try database.append(changes, clock: state.clock.latest)
        return changes
    }

    /// The second half of `persistUnsaved`: what observers and commit handlers are told of the
    /// stored changes, and the log counts that make checkpoints due. Memory only (no SQLite), so
    /// it may run while another thread writes the commit.
    ///
    /// The paths are gathered only when an observer or a commit handler will read them: every
    /// written path only for commit handlers, the paths that show a change only for a document
    /// observed alone.
    func committedChanges(of changes: [ReplicaState.UnsavedDocument]) -> CommittedChanges {
        let listening = !observers.isEmpty || !commitHandlers.isEmpty
        let readsPaths = commitHandlersReadPaths
        var committed = CommittedChanges()
        // By index, each change read where it lies: a loop over the changes themselves copied
        // each (a retain and a release of its key, dots and events). `takeUnsaved` names each
        // document once, so its entries are set, not joined with what is there.
        for index in changes.indices {
            let key = changes[index].key
            if listening {
                let written = readsPaths ? state.changedPaths(of: changes[index]) : []
                let shown = isObservedAlone(key) ? state.shownChangedPaths(of: changes[index]) : nil
                committed.documents[key] = (written, shown)
            }
            // One lookup of the document's entry, counted and judged in place.
            let events = changes[index].dots.count
            if addLogEvents(events, to: &storedDocuments[key, default: ReplicaDatabase.StoredDocument()]) {
                dueDocuments.insert(key)
            }
        }
        return committed
    }

    /// Counts `events` more log events in `stored`; true when its checkpoint is due now.
    private func addLogEvents(_ events: Int, to stored: inout ReplicaDatabase.StoredDocument) -> Bool {
        stored.logEvents += events
        return isCheckpointDue(stored)
    }

    /// Adds a query to the subscription registry (kept across restarts).
    public func addSubscription(_ subscription: ReplicaSubscription) throws {
        if isReadOnly { throw ReplicaError.readOnly(directory: directory) }
        guard !subscriptions.contains(subscription) else { return }
        try database.insertSubscription(subscription)
        subscriptions = try database.loadSubscriptions()
    }
}

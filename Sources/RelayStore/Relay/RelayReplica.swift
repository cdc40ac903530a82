import EventRuntime
import MonotonicTime
import ReplicaCore
import ReplicaSync

/// The replica of a relay whose documents live in PostgreSQL (`serve --postgres`): the rows are
/// the truth, the documents in memory a cache derived from them. What a client sends is
/// committed first (group commit) and acknowledged after the COMMIT; only then does it enter the
/// cache and go out to the other clients. Commits of other relays arrive as notices carrying
/// their events when these fit (entered as rows read would be); otherwise, or after a gap, the
/// rows this relay has not seen are read by version vector, many documents in one statement.
///
/// Documents are read when a client first subscribes to them (`prepare`: one document, or a whole
/// collection), asynchronously on the loop; the session answers once they are in memory. A
/// document no client's subscription has covered for `idleLifetime` is dropped from memory and
/// read again, with whatever other relays stored meanwhile, when it is wanted again.
///
/// When the database goes away the relay keeps its clients: they are answered from the cache,
/// what they send waits (unacknowledged) until the database is back, and the connection is made
/// again with backoff, after which everything stored meanwhile is read by version vector.
///
/// Used only on the event loop's thread, like the sessions.
public final class RelayReplica: SyncReplica {
    public let databaseID: String
    public let target: PostgresTarget
    let url: String
    let loop: any EventLoop
    var cache: ReplicaState
    var connection: PostgresConnection?
    var store: RelayEventStore?
    var group: PostgresGroupCommit?
    var backoff = ReconnectBackoff()
    var random: any RandomNumberGenerator
    var reconnectTimer: EventLoopTimer?
    var nextTicket: UInt64 = 1
    /// Deltas and whole states taken from clients and not yet committed, by ticket.
    var unsaved: [UInt64: RelayWrite] = [:]
    /// The whole states read of each document in memory, by digest: reads skip them. A document
    /// with no key here has taken no whole state, so it has no compacted vector.
    var knownFullStates: [DocumentKey: Set<[UInt8]>] = [:]
    /// Tickets committed this turn, reported together.
    var durableTickets: Set<UInt64> = []
    /// The documents whose cache changed since the last report (what sessions must look at).
    var changedThisTurn: Set<SyncSubscription> = []
    var reportIsScheduled = false
    /// Documents another relay stored something new in, waiting to be read.
    var stale: Set<DocumentKey> = []
    /// Documents whose last read found rows after a gap (committed by two relays, visible out
    /// of dot order); their next notice is read rather than entered, to bring those rows too.
    var gapped: Set<DocumentKey> = []
    var isReading = false
    /// What is in memory (whole collections and single documents, as subscribed to) and when a
    /// live subscription last covered it.
    var resident: [SyncSubscription: SyncInstant] = [:]
    /// Subscriptions to read before they can be answered, in the order asked for.
    var pendingLoads: [SyncSubscription] = []
    let idleLifetime: Duration
    var sweepTimer: EventLoopTimer?
    var readCount = 0
    /// Listings (`SyncListingEntry` by document) of the collections clients asked to list,
    /// kept for as long as the relay runs: a name and a time per document.
    var listings: [String: [String: SyncListingEntry]] = [:]
    /// Collections whose listing is to be read whole (asked for, or after a reconnect).
    var pendingListings: [String] = []
    /// Documents not in memory whose listing entry a notice said may have changed.
    var staleEntries: Set<DocumentKey> = []
    var listingReadCount = 0
    var listingEventCount = 0
    var readEventCount = 0
    var hasStarted = false
    var coalescer = PresenceCoalescer()
    var presenceTimer: EventLoopTimer?
    /// When and for whom documents are compacted (`RelayReplica+Compaction`); set before `start`.
    public var compaction = RelayCompactionConfiguration()
    var compactor = RelayCompactor()

    /// The deltas of these tickets are committed (see `SyncApplyOutcome.deferred`); the cache
    /// holds them, and the documents given changed. Call `SyncNode.durable(_:changed:)`.
    public var onDurable: (Set<UInt64>, Set<SyncSubscription>) -> Void = { _, _ in }
    /// Rows of other relays entered the cache of these documents. Call
    /// `SyncNode.replicaChangedOutsideSessions(_:)`.
    public var onChanged: (Set<SyncSubscription>) -> Void = { _ in }
    /// Presence of another relay's client (or its departure). Pass it to `SyncNode.forward`.
    public var onRemotePresence: (PresenceNotice.Change) -> Void = { _ in }
    /// The database went away (with why) or came back (nil).
    public var onAvailabilityChanged: (PostgresError?) -> Void = { _ in }
    /// What the relay's clients replicate now (`SyncNode.replicatedSubscriptions`): documents none
    /// of them covers for `idleLifetime` are dropped. Nil keeps every document read.
    public var liveSubscriptions: (() -> Set<SyncSubscription>)?

    /// Whether the database is connected and caught up.
    public private(set) var isAvailable = false
    /// Transactions committed and the client deltas they held (the bench's commit batch).
    public var commitStatistics: (transactions: Int, deltas: Int) { (committedTransactions, committedDeltas) }
    var committedTransactions = 0
    var committedDeltas = 0
    /// Reads of documents from the database on behalf of clients (one per document or collection
    /// first subscribed to, or wanted again after it was dropped) and the events they returned.
    public var readStatistics: (reads: Int, events: Int) { (readCount, readEventCount) }
    /// Reads for listings (a whole collection's, or one document's entry after a notice) and the
    /// events they returned: only events at the root, `name` and `trashed`.
    public var listingReadStatistics: (reads: Int, events: Int) { (listingReadCount, listingEventCount) }
    /// Notices of other relays' commits whose events were entered as they came (no read), and
    /// the documents read after a notice (events too large for it, or a gap before them).
    public var noticeStatistics: (entered: Int, read: Int) { (noticesEntered, staleDocumentsRead) }
    var noticesEntered = 0
    var staleDocumentsRead = 0
    /// The documents in memory now.
    public var residentDocumentCount: Int { cache.allDocuments.count }

    /// Reads `url` (throws for one libpq cannot read); nothing connects before `start`.
    /// `idleLifetime` is how long a document no client subscribes to stays in memory.
    public init(
        url: String, databaseID: String, loop: any EventLoop, peerID: PeerID,
        idleLifetime: Duration = .seconds(60),
        random: any RandomNumberGenerator = SystemRandomNumberGenerator()
    ) throws(PostgresError) {
        target = try PostgresTarget(url: url)
        self.url = url
        self.databaseID = databaseID
        self.loop = loop
        self.idleLifetime = idleLifetime
        self.random = random
        cache = ReplicaState(peerID: peerID)
    }

    /// Connects, brings the schema up to date and listens, then answers: nil when ready, or why
    /// the first connection failed (no retry: the caller exits). No document is read yet.
    public func start(completion: @escaping (PostgresError?) -> Void) {
        establish { [weak self] failure in
            guard let self else { return }
            if failure == nil {
                hasStarted = true
                isAvailable = true
                scheduleSweep()
                scheduleCompactionStep()
            }
            completion(failure)
        }
    }

    /// Closes the connection; what was not committed stays unacknowledged (clients resend it).
    public func close() {
        if let reconnectTimer { loop.cancel(reconnectTimer) }
        reconnectTimer = nil
        if let presenceTimer { loop.cancel(presenceTimer) }
        presenceTimer = nil
        if let sweepTimer { loop.cancel(sweepTimer) }
        sweepTimer = nil
        if let timer = compactor.timer { loop.cancel(timer) }
        compactor.timer = nil
        hasStarted = false
        dropConnection()
    }

    // MARK: Connecting

    func establish(completion: @escaping (PostgresError?) -> Void) {
        let connection: PostgresConnection
        do {
            connection = try PostgresConnection(url: url, loop: loop) { [weak self] failure in
                guard let self else { return }
                if let failure { return completion(failure) }
                self.opened(completion: completion)
            }
        } catch {
            return completion(error)
        }
        connection.onFailure = { [weak self, weak connection] failure in
            guard let self, connection === self.connection else { return }
            self.lost(failure)
        }
        self.connection = connection
    }

    func opened(completion: @escaping (PostgresError?) -> Void) {
        guard let connection else { return }
        RelayEventStore.open(databaseID: databaseID, connection: connection) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .failure(let failure):
                dropConnection()
                completion(failure)
            case .success(let store):
                store.listen(
                    ignoringOwn: true,
                    onNotice: { [weak self] in self?.noticed($0) },
                    onPresence: { [weak self] in self?.presenceArrived($0) }
                ) { [weak self] failure in
                    guard let self else { return }
                    if let failure {
                        dropConnection()
                        return completion(failure)
                    }
                    self.store = store
                    let group = GroupCommit(store: store, loop: loop)
                    group.onCommitted = { [weak self] deltas in
                        self?.committedTransactions += 1
                        self?.committedDeltas += deltas
                    }
                    self.group = group
                    catchUp(residentSubscriptions, completion: completion)
                }
            }
        }
    }

    /// What is in memory, whole collections first, each document once.
    var residentSubscriptions: [SyncSubscription] {
        let collections = Set(resident.keys.filter { $0.documentID == nil }.map(\.collection))
        return resident.keys.filter { $0.documentID == nil || !collections.contains($0.collection) }
            .sorted { ($0.collection, $0.documentID ?? "") < ($1.collection, $1.documentID ?? "") }
    }

    /// Reads, for each collection or document in memory, every row the cache does not hold; then
    /// commits what waited and reads what clients asked for meanwhile.
    func catchUp(_ remaining: [SyncSubscription], completion: @escaping (PostgresError?) -> Void) {
        guard let store else { return completion(connectionGone()) }
        guard let subscription = remaining.first else {
            resubmitUnsaved()
            // Notices were missed meanwhile: every listing is read again (and answered from
            // what it was until then).
            for collection in listings.keys.sorted() where !pendingListings.contains(collection) {
                pendingListings.append(collection)
            }
            completion(nil)
            return readNext()
        }
        let (batch, ids) = Self.readBatch(subscription, of: remaining)
        let since = cachedVersions(collection: subscription.collection, documentIDs: ids)
        store.changes(
            collection: subscription.collection, documentIDs: ids, since: since,
            known: known(collection: subscription.collection, documentIDs: ids)
        ) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .failure(let failure):
                dropConnection()
                completion(failure)
            case .success(let rows):
                integrate(rows, readAgainOnGap: false)
                reportLater()
                catchUp(remaining.filter { !batch.contains($0) }, completion: completion)
            }
        }
    }

    func lost(_ failure: PostgresError) {
        let wasAvailable = isAvailable
        isAvailable = false
        dropConnection()
        if wasAvailable { onAvailabilityChanged(failure) }
        scheduleReconnect()
    }

    func scheduleReconnect() {
        guard hasStarted, reconnectTimer == nil else { return }
        let delay = backoff.nextDelay(using: &random)
        reconnectTimer = loop.schedule(at: loop.now + delay) { [weak self] in
            guard let self else { return }
            reconnectTimer = nil
            establish { [weak self] failure in
                guard let self, hasStarted else { return }
                if failure != nil { return scheduleReconnect() }
                backoff.reset()
                isAvailable = true
                onAvailabilityChanged(nil)
            }
        }
    }

    func dropConnection() {
        let connection = connection
        self.connection = nil
        store = nil
        group = nil
        isReading = false
        connection?.close()
    }

    func connectionGone() -> PostgresError {
        PostgresError(
            kind: .connectionLost, operation: "reading", target: target.description,
            message: "the connection was closed")
    }

    // MARK: Writing

    func submit(_ ticket: UInt64, _ write: RelayWrite) {
        guard let group else { return }
        group.submit(write) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .success:
                guard unsaved.removeValue(forKey: ticket) != nil else { return }
                let rows = StoredRows(write)
                integrate(rows, readAgainOnGap: true)
                enteredOwnCommit(rows)
                durableTickets.insert(ticket)
                reportLater()
            case .failure(let failure):
                // Kept in `unsaved`; committed again once the database is back.
                if isAvailable || connection != nil { lost(failure) }
            }
        }
    }

    /// What this relay's own notice of a commit did before they were ignored (`listen`): a
    /// listed document no longer in memory has its listing entry read again.
    func enteredOwnCommit(_ rows: StoredRows) {
        let collection = rows.delta.collection
        guard listings[collection] != nil || pendingListings.contains(collection) else { return }
        var added = false
        for id in rows.documentIDs {
            let key = DocumentKey(collection: collection, id: id)
            if !isWanted(key) { added = staleEntries.insert(key).inserted || added }
        }
        if added { readNext() }
    }

    func resubmitUnsaved() {
        for (ticket, write) in unsaved.sorted(by: { $0.key < $1.key }) { submit(ticket, write) }
    }

    /// One report per loop turn: the committed tickets, and whether the cache changed.
    func reportLater() {
        guard !reportIsScheduled else { return }
        reportIsScheduled = true
        loop.schedule(at: loop.now) { [weak self] in
            guard let self else { return }
            reportIsScheduled = false
            let tickets = durableTickets
            let changed = changedThisTurn
            durableTickets = []
            changedThisTurn = []
            if !tickets.isEmpty {
                onDurable(tickets, changed)
            } else if !changed.isEmpty {
                onChanged(changed)
            }
        }
    }
}

import EventRuntime
import MonotonicTime
import ReplicaCore
import ReplicaSync

/// The replica of a relay whose documents live in PostgreSQL (`serve --postgres`): the rows are
/// the truth, the documents in memory a cache derived from them. What a client sends is
/// committed first (group commit) and acknowledged after the COMMIT; only then does it enter the
/// cache and go out to the other clients. Commits of other relays arrive as notices, and the rows
/// this relay has not seen are read by version vector.
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
    private let url: String
    private let loop: any EventLoop
    private var cache: ReplicaState
    private var connection: PostgresConnection?
    private var store: RelayEventStore?
    private var group: PostgresGroupCommit?
    private var backoff = ReconnectBackoff()
    private var random: any RandomNumberGenerator
    private var reconnectTimer: EventLoopTimer?
    private var nextTicket: UInt64 = 1
    /// Deltas taken from clients and not yet committed, by ticket.
    private var unsaved: [UInt64: ReplicaDelta] = [:]
    /// Tickets committed this turn, reported together.
    private var durableTickets: Set<UInt64> = []
    /// The documents whose cache changed since the last report (what sessions must look at).
    private var changedThisTurn: Set<SyncSubscription> = []
    private var reportIsScheduled = false
    /// Documents another relay stored something new in, waiting to be read.
    private var stale: Set<DocumentKey> = []
    private var isReading = false
    /// What is in memory (whole collections and single documents, as subscribed to) and when a
    /// live subscription last covered it.
    private var resident: [SyncSubscription: SyncInstant] = [:]
    /// Subscriptions to read before they can be answered, in the order asked for.
    private var pendingLoads: [SyncSubscription] = []
    private let idleLifetime: Duration
    private var sweepTimer: EventLoopTimer?
    private var readCount = 0
    /// Listings (`SyncListingEntry` by document) of the collections clients asked to list,
    /// kept for as long as the relay runs: a name and a time per document.
    private var listings: [String: [String: SyncListingEntry]] = [:]
    /// Collections whose listing is to be read whole (asked for, or after a reconnect).
    private var pendingListings: [String] = []
    /// Documents not in memory whose listing entry a notice said may have changed.
    private var staleEntries: Set<DocumentKey> = []
    private var listingReadCount = 0
    private var listingEventCount = 0
    private var readEventCount = 0
    private var hasStarted = false
    private var coalescer = PresenceCoalescer()
    private var presenceTimer: EventLoopTimer?

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
    private var committedTransactions = 0
    private var committedDeltas = 0
    /// Reads of documents from the database on behalf of clients (one per document or collection
    /// first subscribed to, or wanted again after it was dropped) and the events they returned.
    public var readStatistics: (reads: Int, events: Int) { (readCount, readEventCount) }
    /// Reads for listings (a whole collection's, or one document's entry after a notice) and the
    /// events they returned: only events at the root, `name` and `trashed`.
    public var listingReadStatistics: (reads: Int, events: Int) { (listingReadCount, listingEventCount) }
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
        hasStarted = false
        dropConnection()
    }

    // MARK: Connecting

    private func establish(completion: @escaping (PostgresError?) -> Void) {
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

    private func opened(completion: @escaping (PostgresError?) -> Void) {
        guard let connection else { return }
        RelayEventStore.open(databaseID: databaseID, connection: connection) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .failure(let failure):
                dropConnection()
                completion(failure)
            case .success(let store):
                store.listen(
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
    private var residentSubscriptions: [SyncSubscription] {
        let collections = Set(resident.keys.filter { $0.documentID == nil }.map(\.collection))
        return resident.keys.filter { $0.documentID == nil || !collections.contains($0.collection) }
            .sorted { ($0.collection, $0.documentID ?? "") < ($1.collection, $1.documentID ?? "") }
    }

    /// Reads, for each collection or document in memory, every row the cache does not hold; then
    /// commits what waited and reads what clients asked for meanwhile.
    private func catchUp(_ remaining: [SyncSubscription], completion: @escaping (PostgresError?) -> Void) {
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
        store.changes(
            collection: subscription.collection, documentID: subscription.documentID,
            since: cache.versions(collection: subscription.collection, documentID: subscription.documentID)
        ) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .failure(let failure):
                dropConnection()
                completion(failure)
            case .success(let delta):
                integrate(delta, readAgainOnGap: false)
                reportLater()
                catchUp(Array(remaining.dropFirst()), completion: completion)
            }
        }
    }

    private func lost(_ failure: PostgresError) {
        let wasAvailable = isAvailable
        isAvailable = false
        dropConnection()
        if wasAvailable { onAvailabilityChanged(failure) }
        scheduleReconnect()
    }

    private func scheduleReconnect() {
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

    private func dropConnection() {
        let connection = connection
        self.connection = nil
        store = nil
        group = nil
        isReading = false
        connection?.close()
    }

    private func connectionGone() -> PostgresError {
        PostgresError(
            kind: .connectionLost, operation: "reading", target: target.description,
            message: "the connection was closed")
    }

    // MARK: Writing

    private func submit(_ ticket: UInt64, _ delta: ReplicaDelta) {
        guard let group else { return }
        group.submit(delta) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .success:
                guard unsaved.removeValue(forKey: ticket) != nil else { return }
                integrate(delta, readAgainOnGap: true)
                durableTickets.insert(ticket)
                reportLater()
            case .failure(let failure):
                // Kept in `unsaved`; committed again once the database is back.
                if isAvailable || connection != nil { lost(failure) }
            }
        }
    }

    private func resubmitUnsaved() {
        for (ticket, delta) in unsaved.sorted(by: { $0.key < $1.key }) { submit(ticket, delta) }
    }

    /// One report per loop turn: the committed tickets, and whether the cache changed.
    private func reportLater() {
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

    // MARK: Reading what other relays stored

    private func noticed(_ notice: CommitNotice) {
        let key = DocumentKey(collection: notice.collection, id: notice.documentID)
        // A listed document not in memory: its entry is read again (a light read); one in
        // memory has its entry worked out from the cache when the new rows are in.
        if listings[key.collection] != nil || pendingListings.contains(key.collection), !isWanted(key) {
            staleEntries.insert(key)
            readNext()
        }
        // A document not in memory is read whole when it is wanted.
        guard isWanted(key),
            notice.isNew(comparedWith: cache.document(key)?.versionVector ?? VersionVector())
        else { return }
        stale.insert(key)
        readNext()
    }

    /// Reads what clients asked for first, then what other relays stored in documents in memory.
    private func readNext() {
        if !isReading, store != nil, let load = pendingLoads.first { return read(load) }
        if !isReading, store != nil, let collection = pendingListings.first {
            return readListing(of: collection, documentID: nil)
        }
        if !isReading, store != nil, stale.isEmpty,
            let key = staleEntries.min(by: { ($0.collection, $0.id) < ($1.collection, $1.id) })
        {
            staleEntries.remove(key)
            return readListing(of: key.collection, documentID: key.id)
        }
        readStale()
    }

    /// Reads the events a listing depends on, of a whole collection or one document, and works
    /// out the entries from them alone; documents in memory are not read again for it.
    private func readListing(of collection: String, documentID: String?) {
        guard let store else { return }
        isReading = true
        store.listingEvents(collection: collection, documentID: documentID) { [weak self] outcome in
            guard let self, store === self.store else { return }
            isReading = false
            switch outcome {
            case .failure(let failure) where failure.kind == .connectionLost:
                return lost(failure)
            case .failure:
                // A row this program cannot read: its document keeps the entry it had (or has
                // none) until its next notice.
                if documentID == nil { finishListing(collection, with: [:]) }
            case .success(let delta):
                listingReadCount += 1
                listingEventCount += delta.documents.reduce(0) { $0 + $1.events.count }
                var entries: [String: SyncListingEntry] = [:]
                for document in delta.documents {
                    entries[document.documentID] = SyncListingEntry(
                        document: DocumentState(events: document.events))
                }
                if let documentID {
                    if listings[collection] != nil, listings[collection]?[documentID] != entries[documentID] {
                        listings[collection]?[documentID] = entries[documentID]
                        changedThisTurn.insert(
                            SyncSubscription(collection: collection, documentID: documentID))
                        reportLater()
                    }
                } else {
                    finishListing(collection, with: entries)
                }
            }
            readNext()
        }
    }

    /// A whole listing read: documents in memory take their entries from the cache (which may
    /// hold rows committed after the read began).
    private func finishListing(_ collection: String, with entries: [String: SyncListingEntry]) {
        var listing = entries
        for id in cache.documentIDs(in: collection) {
            let key = DocumentKey(collection: collection, id: id)
            guard isWanted(key), let document = cache.document(key) else { continue }
            listing[id] = SyncListingEntry(document: document)
        }
        pendingListings.removeAll { $0 == collection }
        if listings[collection] != listing {
            listings[collection] = listing
            changedThisTurn.insert(SyncSubscription(collection: collection))
            reportLater()
        }
    }

    /// The entries of documents in memory after new rows entered the cache.
    private func refreshEntries(of delta: ReplicaDelta) {
        guard listings[delta.collection] != nil else { return }
        for document in delta.documents {
            let key = DocumentKey(collection: delta.collection, id: document.documentID)
            guard isWanted(key) else { continue }
            let entry = cache.document(key).flatMap { SyncListingEntry(document: $0) }
            if listings[delta.collection]?[document.documentID] != entry {
                listings[delta.collection]?[document.documentID] = entry
                changedThisTurn.insert(
                    SyncSubscription(collection: delta.collection, documentID: document.documentID))
            }
        }
    }

    private func readStale() {
        guard !isReading, let store,
            let key = stale.min(by: { ($0.collection, $0.id) < ($1.collection, $1.id) })
        else { return }
        stale.remove(key)
        isReading = true
        store.changes(
            collection: key.collection, documentID: key.id,
            since: cache.versions(collection: key.collection, documentID: key.id)
        ) { [weak self] outcome in
            guard let self, store === self.store else { return }
            isReading = false
            switch outcome {
            case .success(let delta):
                integrate(delta, readAgainOnGap: false)
                reportLater()
            case .failure(let failure):
                if failure.kind == .connectionLost { return lost(failure) }
            // A row this program cannot read: the document is read again after the next notice.
            }
            readNext()
        }
    }

    /// Enters rows into the cache, per document, up to the first gap of each peer (a row another
    /// relay committed later can be visible before one it committed earlier); the rest comes
    /// with a later read. The documents that changed are reported with the turn's report.
    private func integrate(_ delta: ReplicaDelta, readAgainOnGap: Bool) {
        for document in delta.documents {
            let key = DocumentKey(collection: delta.collection, id: document.documentID)
            // A document not in memory (or dropped while this was read) is read when wanted.
            guard isWanted(key) else { continue }
            let have = cache.document(key)?.versionVector ?? VersionVector()
            let (usable, complete) = Self.contiguous(document.events, after: have)
            if !complete, readAgainOnGap { stale.insert(key) }
            guard !usable.isEmpty else { continue }
            // The relay never writes, so its clock's wall time is never used.
            let outcome = try? cache.apply(
                ReplicaDelta(
                    collection: delta.collection,
                    documents: [.init(documentID: document.documentID, events: usable)]), wall: 0)
            if case .applied(let newEvents, let documents) = outcome, newEvents > 0 || !documents.isEmpty {
                changedThisTurn.insert(
                    SyncSubscription(collection: delta.collection, documentID: document.documentID))
            }
        }
        refreshEntries(of: delta)
        if readAgainOnGap, !stale.isEmpty { readNext() }
    }

    /// The events that continue `have` without a gap, and whether that is all of them.
    static func contiguous(_ events: [DocumentEvent], after have: VersionVector) -> ([DocumentEvent], Bool) {
        var next: [PeerID: UInt64] = [:]
        var usable: [DocumentEvent] = []
        var complete = true
        for event in events.sorted(by: { $0.dot < $1.dot }) {
            let peer = event.dot.peer
            let expected = next[peer] ?? have[peer] + 1
            if event.dot.counter < expected { continue }
            if event.dot.counter > expected {
                complete = false
                next[peer] = .max
                continue
            }
            next[peer] = expected + 1
            usable.append(event)
        }
        return (usable, complete)
    }

    // MARK: Documents in memory

    /// Whether a document is in memory, or being read into it.
    private func isWanted(_ key: DocumentKey) -> Bool {
        let whole = SyncSubscription(collection: key.collection)
        let one = SyncSubscription(collection: key.collection, documentID: key.id)
        return resident[whole] != nil || resident[one] != nil || pendingLoads.contains(whole)
            || pendingLoads.contains(one)
    }

    /// Reads one subscription's documents (all rows the cache lacks) and keeps them in memory.
    private func read(_ load: SyncSubscription) {
        guard let store else { return }
        isReading = true
        store.changes(
            collection: load.collection, documentID: load.documentID,
            since: cache.versions(collection: load.collection, documentID: load.documentID)
        ) { [weak self] outcome in
            guard let self, store === self.store else { return }
            isReading = false
            switch outcome {
            case .failure(let failure) where failure.kind == .connectionLost:
                return lost(failure)
            case .failure:
                // A row this program cannot read: the client is answered with what could be read,
                // and the rest is read again after the document's next notice.
                break
            case .success(let delta):
                readCount += 1
                readEventCount += delta.documents.reduce(0) { $0 + $1.events.count }
                integrate(delta, readAgainOnGap: false)
            }
            pendingLoads.removeAll { $0 == load }
            resident[load] = loop.now
            // The sessions waiting for it answer now (their `prepare` says yes).
            changedThisTurn.insert(load)
            reportLater()
            readNext()
        }
    }

    private func scheduleSweep() {
        let interval = max(idleLifetime / 2, .milliseconds(50))
        sweepTimer = loop.schedule(at: loop.now + interval) { [weak self] in
            guard let self, hasStarted else { return }
            sweep()
            scheduleSweep()
        }
    }

    /// Drops what no live subscription has covered for `idleLifetime`. A document a live
    /// subscription still covers stays, whether it came in with its collection or alone.
    private func sweep() {
        guard let live = liveSubscriptions?() else { return }
        let now = loop.now
        for subscription in Array(resident.keys) {
            let covered =
                live.contains(subscription)
                || (subscription.documentID != nil
                    && live.contains(SyncSubscription(collection: subscription.collection)))
            if covered { resident[subscription] = now }
        }
        let expired = resident.filter { now.since($0.value) >= idleLifetime }.map(\.key)
        guard !expired.isEmpty else { return }
        for subscription in expired {
            resident[subscription] = nil
            if subscription.documentID == nil {
                // Its documents that someone still has open stay, as documents of their own.
                for one in live where one.collection == subscription.collection && one.documentID != nil {
                    resident[one] = resident[one] ?? now
                }
            }
        }
        for subscription in expired {
            let ids = subscription.documentID.map { [$0] } ?? cache.documentIDs(in: subscription.collection)
            for id in ids {
                let key = DocumentKey(collection: subscription.collection, id: id)
                guard !isWanted(key) else { continue }
                cache.forget(key)
                stale.remove(key)
            }
        }
    }

    // MARK: Presence

    /// Passes a client's presence (or its departure) to the other relays, at most once per
    /// 50 ms per peer. While the database is away presence is dropped: it is ephemeral.
    public func publishPresence(_ change: PresenceNotice.Change) {
        let peerID = PresenceNotice(relayPeerID: 0, change: change).peerID
        if let ready = coalescer.offer(change, peerID: peerID, now: loop.now) { sendPresence([ready]) }
        armPresenceTimer()
    }

    private func armPresenceTimer() {
        guard presenceTimer == nil, let deadline = coalescer.nextDeadline else { return }
        presenceTimer = loop.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            presenceTimer = nil
            sendPresence(coalescer.due(now: loop.now).map(\.change))
            armPresenceTimer()
        }
    }

    private func sendPresence(_ changes: [PresenceNotice.Change]) {
        guard let store, !changes.isEmpty else { return }
        let relay = cache.peerID.rawValue
        store.notifyPresence(changes.map { PresenceNotice(relayPeerID: relay, change: $0).payload }) { _ in }
    }

    private func presenceArrived(_ payload: String) {
        guard let notice = PresenceNotice(payload: payload), notice.relayPeerID != cache.peerID.rawValue
        else { return }
        onRemotePresence(notice.change)
    }

    // MARK: SyncReplica

    /// Whether the subscription's documents are in memory; if not, they are read (the node is
    /// told through `onChanged` when they are) and the answer is no.
    public func prepare(_ subscription: SyncSubscription) -> Bool {
        let whole = SyncSubscription(collection: subscription.collection)
        if resident[subscription] != nil || resident[whole] != nil {
            resident[resident[subscription] != nil ? subscription : whole] = loop.now
            return true
        }
        if !pendingLoads.contains(subscription) {
            pendingLoads.append(subscription)
            readNext()
        }
        return false
    }

    /// The listing of a collection, read (light: root, `name` and `trashed` rows only) the first
    /// time it is asked for; until then nil, and the node is told through `onChanged`.
    public func listing(of collection: String) -> [String: SyncListingEntry]? {
        if let listing = listings[collection] { return listing }
        if !pendingListings.contains(collection) {
            pendingListings.append(collection)
            readNext()
        }
        return nil
    }

    public func encodedVersions(for subscription: SyncSubscription) throws -> [UInt8] {
        cache.versions(collection: subscription.collection, documentID: subscription.documentID).encoded()
    }

    public func encodedChanges(for subscription: SyncSubscription, since remoteVersions: [UInt8]) throws
        -> [UInt8]?
    {
        let since = try ReplicaSyncAdapterError.remoteVersions(remoteVersions)
        let delta = cache.changes(
            collection: subscription.collection, documentID: subscription.documentID, since: since)
        return delta.isEmpty ? nil : delta.encoded()
    }

    /// Checks the delta and hands it to the group commit; the ack waits for its COMMIT. A delta
    /// the cache already holds is answered at once.
    public func applyEncodedChanges(_ bytes: [UInt8], for subscription: SyncSubscription) throws
        -> SyncApplyOutcome
    {
        let delta: ReplicaDelta
        do {
            delta = try ReplicaDelta(decoding: bytes)
        } catch {
            throw ReplicaSyncAdapterError.undecodable(what: "a delta", reason: "\(error)")
        }
        let covering = ReplicaSubscription(
            collection: subscription.collection, documentID: subscription.documentID)
        var isNew = false
        for document in delta.documents {
            let key = DocumentKey(collection: delta.collection, id: document.documentID)
            guard covering.covers(key) else {
                throw ReplicaSyncAdapterError.outsideSubscription(
                    collection: delta.collection, documentID: document.documentID,
                    subscription: subscription.description)
            }
            // What no honest peer writes is refused before it reaches the shared log.
            try ReplicaState.validate(document.events, documentID: document.documentID)
            let have = cache.document(key)?.versionVector ?? VersionVector()
            if document.events.contains(where: { !have.contains($0.dot) }) { isNew = true }
        }
        guard isNew else { return .unchanged }
        let ticket = nextTicket
        nextTicket += 1
        unsaved[ticket] = delta
        submit(ticket, delta)
        return .deferred(ticket: ticket)
    }

    /// Deltas waiting for the database (unacknowledged).
    public var unsavedDeltaCount: Int { unsaved.count }
}

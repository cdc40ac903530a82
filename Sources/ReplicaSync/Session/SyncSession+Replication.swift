import MonotonicTime

/// Replication after the handshake: subscriptions, version vectors, deltas with one in flight per
/// subscription, acknowledgements, presence.
extension SyncSession {
    /// Per-subscription bookkeeping of what the remote has and what is on the wire.
    struct ReplicationProgress {
        /// Subscriptions this connection replicates (ours plus the remote's).
        var subscriptions: [SyncSubscription] = []
        /// The latest lower bound of the remote's versions, per subscription.
        var remoteVersions: [SyncSubscription: [UInt8]] = [:]
        /// The unacknowledged delta per subscription. Changes made meanwhile wait for its ack,
        /// which always sends what the remote then lacks.
        var inFlight: [SyncSubscription: UInt64] = [:]
        /// Subscriptions for which the remote's first delta arrived: initial sync done.
        var caughtUp: Set<SyncSubscription> = []
        /// Deltas the replica took but has not made durable yet, by its ticket: their acks wait.
        var awaitingDurability: [UInt64: (subscription: SyncSubscription, sequence: UInt64)] = [:]
        /// Subscriptions the replica is still reading (`SyncReplica.prepare`): our versions and
        /// deltas for them wait until it has them.
        var preparing: [SyncSubscription] = []
        /// The listings the remote asked for, as last sent (nil until the first answer).
        var listingsServed: [String: [String: SyncListingEntry]?] = [:]
        /// The listings the remote relay sent, as they stand now.
        var listingsReceived: [String: [String: SyncListingEntry]] = [:]
        var nextSequence: UInt64 = 1
    }

    /// Deltas sent but not yet acknowledged by the remote (changes waiting behind one go out
    /// with its ack, so none is due while nothing is in flight).
    public var pendingDeltaCount: Int {
        replication.inFlight.count
    }

    /// Whether a delta this session took waits for the replica to make it durable (see
    /// `durable(_:failed:now:)`).
    public var awaitsDurability: Bool {
        !replication.awaitingDurability.isEmpty
    }

    /// Whether every subscription of ours received its first delta from the remote.
    public var isCaughtUp: Bool {
        isEstablished && configuration.subscriptions.allSatisfy { replication.caughtUp.contains($0) }
    }

    /// A local write committed (or, on a relay, another session applied a remote delta): send the
    /// remote what it now lacks.
    public mutating func localCommitted(now: SyncInstant) -> [SyncAction] {
        guard isEstablished else { return [] }
        var actions = resumePrepared(now: now)
        for subscription in replication.subscriptions {
            actions += pushChanges(for: subscription, now: now)
            if !isOpen { break }
        }
        for collection in replication.listingsServed.keys.sorted() where isOpen {
            actions += pushListing(of: collection, now: now)
        }
        return actions
    }

    /// Subscribes to one more subscription on an open session (a client opening a drawing it
    /// only had listed): the remote is told, and replication starts as for the first ones.
    public mutating func subscribe(_ subscription: SyncSubscription, now: SyncInstant) -> [SyncAction] {
        guard !configuration.subscriptions.contains(subscription) else { return [] }
        configuration.subscriptions.append(subscription)
        guard isEstablished else { return [] }
        return send(.subscribe([subscription]), now: now) + addSubscription(subscription, now: now)
    }

    /// The listing of `collection` the remote relay sent (nil before its first answer).
    public func listing(of collection: String) -> [String: SyncListingEntry]? {
        replication.listingsReceived[collection]
    }

    /// Whether the remote asked this side for the listing of `collection`.
    func servesListing(of collection: String) -> Bool {
        replication.listingsServed.keys.contains(collection)
    }

    /// The collections whose listing the remote asked for (it only grows).
    var servedListings: [String] {
        Array(replication.listingsServed.keys)
    }

    var servedListingCount: Int {
        replication.listingsServed.count
    }

    /// Sends what changed in a listing the remote asked for since it was last sent (all of it
    /// the first time, even when empty); nothing while the replica is still reading it.
    private mutating func pushListing(of collection: String, now: SyncInstant) -> [SyncAction] {
        guard let current = replica.listing(of: collection) else { return [] }
        let previous = replication.listingsServed[collection] ?? nil
        let changes = SyncListingChange.changes(from: previous ?? [:], to: current)
        guard previous == nil || !changes.isEmpty else { return [] }
        replication.listingsServed[collection] = current
        var actions: [SyncAction] = []
        var start = 0
        repeat {
            let end = min(start + SyncMessage.maxListingChanges, changes.count)
            actions += send(.listing(collection: collection, changes: Array(changes[start..<end])), now: now)
            start = end
        } while start < changes.count && isOpen
        return actions
    }

    /// Sends this side's (or, on a relay, a forwarded) presence.
    public mutating func publish(presence update: PresenceUpdate, now: SyncInstant) -> [SyncAction] {
        guard isEstablished, update.peerID != remote?.peerID else { return [] }
        return send(.presence(update), now: now)
    }

    /// Tells the remote (a client of this relay) what is wrong with the relay, or nil: all is well.
    public mutating func publish(relayProblem: String?, now: SyncInstant) -> [SyncAction] {
        guard isEstablished else { return [] }
        return send(.relayStatus(relayProblem ?? ""), now: now)
    }

    /// Tells the remote that a peer's presence is gone; a relay forwards departures as it forwards
    /// presence, so its clients drop the cursor at once instead of after their presence timeout.
    public mutating func publish(presenceLeft peerID: UInt64, now: SyncInstant) -> [SyncAction] {
        guard isEstablished, peerID != remote?.peerID else { return [] }
        return send(.presenceLeft(peerID: peerID), now: now)
    }

    /// What this connection replicates (ours plus the remote's), in the order added; it only
    /// grows.
    var replicatedSubscriptions: [SyncSubscription] {
        replication.subscriptions
    }

    /// Whether live presence of this peer arrived on this connection.
    func holdsPresence(of peerID: UInt64) -> Bool {
        presence[peerID] != nil
    }

    mutating func startReplication(now: SyncInstant) -> [SyncAction] {
        // In messages of at most 256 (what a receiver takes in one); always one, even empty.
        var actions: [SyncAction] = []
        var start = 0
        repeat {
            let end = min(start + SyncMessage.maxSubscriptions, configuration.subscriptions.count)
            actions += send(.subscribe(Array(configuration.subscriptions[start..<end])), now: now)
            start = end
        } while start < configuration.subscriptions.count && isOpen
        for collection in configuration.listings where isOpen {
            actions += send(.listingRequest(collection: collection), now: now)
        }
        for subscription in configuration.subscriptions {
            actions += addSubscription(subscription, now: now)
        }
        return actions
    }

    /// Replicates a subscription on this connection, sending our versions so the remote answers
    /// with what we lack (resume is always from version vectors).
    private mutating func addSubscription(_ subscription: SyncSubscription, now: SyncInstant) -> [SyncAction]
    {
        guard !replication.subscriptions.contains(subscription) else { return [] }
        replication.subscriptions.append(subscription)
        guard replica.prepare(subscription) else {
            replication.preparing.append(subscription)
            return []
        }
        return sendVersions(of: subscription, now: now)
    }

    private mutating func sendVersions(of subscription: SyncSubscription, now: SyncInstant) -> [SyncAction] {
        do {
            let versions = try replica.encodedVersions(for: subscription)
            return send(.versions(subscription, versions), now: now)
        } catch {
            return refuse(.replicaFailed(String(describing: error)), now: now)
        }
    }

    /// The subscriptions the replica has read since: our versions go out, and the first answer
    /// to the remote's versions if they came meanwhile.
    private mutating func resumePrepared(now: SyncInstant) -> [SyncAction] {
        guard !replication.preparing.isEmpty else { return [] }
        var actions: [SyncAction] = []
        for subscription in replication.preparing where isOpen && replica.prepare(subscription) {
            replication.preparing.removeAll { $0 == subscription }
            actions += sendVersions(of: subscription, now: now)
            if isOpen, !replication.inFlight.keys.contains(subscription) {
                actions += pushChanges(for: subscription, now: now, evenIfEmpty: true)
            }
        }
        return actions
    }

    mutating func receiveReplication(_ message: SyncMessage, now: SyncInstant) -> [SyncAction] {
        switch message {
        case .subscribe(let subscriptions):
            var actions: [SyncAction] = []
            for subscription in subscriptions where isOpen {
                actions += addSubscription(subscription, now: now)
            }
            return actions
        case .versions(let subscription, let versions):
            var actions = addSubscription(subscription, now: now)
            replication.remoteVersions[subscription] = versions
            remoteHolds(versions, for: subscription)
            actions += pushChanges(
                for: subscription, now: now, evenIfEmpty: !replication.inFlight.keys.contains(subscription))
            return actions
        case .delta(let delta):
            return apply(delta, now: now)
        case .fullState(let delta):
            return apply(delta, isFullState: true, now: now)
        case .ack(let subscription, let sequence, let versions):
            guard replication.inFlight[subscription] == sequence else { return [] }  // stale or duplicate
            replication.inFlight[subscription] = nil
            replication.remoteVersions[subscription] = versions
            remoteHolds(versions, for: subscription)
            lastSyncAt = now
            // Not only when dirty: an ack behind what was sent means the remote refused the delta
            // (a gap), and this resends from the versions it really has. Nil changes send nothing.
            return pushChanges(for: subscription, now: now)
        case .presence(let update):
            guard update.peerID != configuration.peerID else { return [] }
            presence[update.peerID] = (update, now)
            return [.deliverPresence(update)]
        case .presenceLeft(let peerID):
            // Only what this connection delivered is expired: a stale or repeated departure, or one
            // about this peer itself, changes nothing.
            guard peerID != configuration.peerID, presence.removeValue(forKey: peerID) != nil else {
                return []
            }
            return [.presenceExpired(peerID: peerID)]
        case .keepalive:
            return []
        case .relayStatus(let text):
            relayProblem = text.isEmpty ? nil : text
            return []
        case .listingRequest(let collection):
            guard !servesListing(of: collection) else { return [] }
            guard replication.listingsServed.count < SyncMessage.maxSubscriptions else {
                return refuse(.unexpectedMessage("more than 256 listing requests", phase: "sync"), now: now)
            }
            replication.listingsServed[collection] = .some(nil)
            return pushListing(of: collection, now: now)
        case .listing(let collection, let changes):
            guard configuration.listings.contains(collection) else {
                return refuse(
                    .unexpectedMessage("listing of unrequested \(collection)", phase: "sync"), now: now)
            }
            var listing = replication.listingsReceived[collection] ?? [:]
            for change in changes { listing[change.documentID] = change.entry }
            replication.listingsReceived[collection] = listing
            return [.listingChanged(collection)]
        case .hello, .response, .identity, .sealed, .goodbye:
            return refuse(.unexpectedMessage(String(describing: message.kind), phase: "sync"), now: now)
        }
    }

    /// Tells the replica what the remote holds (compaction waits for it).
    private func remoteHolds(_ versions: [UInt8], for subscription: SyncSubscription) {
        guard let peer = remote?.peerID else { return }
        replica.remoteHolds(versions, for: subscription, peer: peer)
    }

    private mutating func apply(_ delta: SyncMessage.Delta, isFullState: Bool = false, now: SyncInstant)
        -> [SyncAction]
    {
        guard replication.subscriptions.contains(delta.subscription) else {
            return refuse(
                .unexpectedMessage("delta for unrequested \(delta.subscription)", phase: "sync"), now: now)
        }
        var actions: [SyncAction] = []
        do {
            var outcome = SyncApplyOutcome.unchanged
            if isFullState {
                outcome = try replica.applyEncodedFullState(delta.changes, for: delta.subscription)
            } else if !delta.changes.isEmpty {
                outcome = try replica.applyEncodedChanges(delta.changes, for: delta.subscription)
            }
            remoteHolds(delta.senderVersions, for: delta.subscription)
            if outcome == .changed { actions.append(.replicaChanged(delta.subscription)) }
            if case .deferred(let ticket) = outcome {
                replication.awaitingDurability[ticket] = (delta.subscription, delta.sequence)
                if replication.inFlight[delta.subscription] == nil {
                    replication.remoteVersions[delta.subscription] = delta.senderVersions
                }
                replication.caughtUp.insert(delta.subscription)
                lastSyncAt = now
                return actions
            }
            // After a refusal the ack carries the versions the replica really has; the sender
            // resends from them (see `.ack`).
            let versions = try replica.encodedVersions(for: delta.subscription)
            // What the sender had is a lower bound of what it has: our next delta skips it.
            if replication.inFlight[delta.subscription] == nil {
                replication.remoteVersions[delta.subscription] = delta.senderVersions
            }
            if outcome != .refused { replication.caughtUp.insert(delta.subscription) }
            lastSyncAt = now
            actions += send(.ack(delta.subscription, sequence: delta.sequence, versions: versions), now: now)
        } catch {
            return actions + refuse(.replicaFailed(String(describing: error)), now: now)
        }
        return actions
    }

    /// The replica made the deltas of `tickets` durable: acknowledge the ones this session took,
    /// with the versions the replica now has. A delta of `failed` could not be kept (the reason
    /// given): as when an apply throws, the session ends and the sender keeps it unacknowledged.
    public mutating func durable(
        _ tickets: Set<UInt64>, failed: [UInt64: String] = [:], now: SyncInstant
    ) -> [SyncAction] {
        guard isEstablished else { return [] }
        var actions: [SyncAction] = []
        let awaiting = replication.awaitingDurability
        if let failure = failed.sorted(by: { $0.key < $1.key }).first(where: { awaiting[$0.key] != nil }) {
            replication.awaitingDurability[failure.key] = nil
            return refuse(.replicaFailed(failure.value), now: now)
        }
        for ticket in tickets.sorted() {
            guard let waiting = replication.awaitingDurability.removeValue(forKey: ticket) else { continue }
            do {
                let versions = try replica.encodedVersions(for: waiting.subscription)
                actions += send(
                    .ack(waiting.subscription, sequence: waiting.sequence, versions: versions), now: now)
            } catch {
                return actions + refuse(.replicaFailed(String(describing: error)), now: now)
            }
            if !isOpen { break }
        }
        return actions
    }

    /// Sends what the remote lacks for one subscription, keeping one delta in flight.
    private mutating func pushChanges(
        for subscription: SyncSubscription, now: SyncInstant, evenIfEmpty: Bool = false
    ) -> [SyncAction] {
        guard let remoteVersions = replication.remoteVersions[subscription] else { return [] }
        guard replication.inFlight[subscription] == nil, !replication.preparing.contains(subscription) else {
            return []
        }
        do {
            // A remote that lacks compacted history gets those documents' whole state first;
            // its ack brings versions that a delta can follow.
            if let state = try replica.encodedFullState(for: subscription, since: remoteVersions) {
                let sequence = replication.nextSequence
                replication.nextSequence += 1
                let message = SyncMessage.Delta(
                    subscription: subscription, sequence: sequence,
                    senderVersions: try replica.encodedVersions(for: subscription), changes: state)
                let actions = send(.fullState(message), now: now)
                if isOpen { replication.inFlight[subscription] = sequence }
                return actions
            }
            let changes = try replica.encodedChanges(for: subscription, since: remoteVersions)
            // The first answer is sent even when empty: it tells the remote it is caught up.
            guard changes != nil || evenIfEmpty else { return [] }
            let versions = try replica.encodedVersions(for: subscription)
            let sequence = replication.nextSequence
            replication.nextSequence += 1
            let delta = SyncMessage.Delta(
                subscription: subscription, sequence: sequence, senderVersions: versions,
                changes: changes ?? [])
            let actions = send(.delta(delta), now: now)
            if isOpen { replication.inFlight[subscription] = sequence }
            return actions
        } catch {
            return refuse(.replicaFailed(String(describing: error)), now: now)
        }
    }
}

/// Which connections a change reaches. A relay of a thousand clients on a hundred drawings
/// offers a stroke to the few sessions that replicate its drawing, found by subscription,
/// rather than asking every session whether it wants it; the sessions that serve a listing and
/// those awaiting durability are indexed the same way, so no step of a stroke looks at every
/// connection.
extension SyncNode {
    /// The connections replicating something that overlaps `subscription` (see
    /// `SyncSubscription.overlaps`), each once.
    func connections(overlapping subscription: SyncSubscription) -> [PeerConnection] {
        if subscription.documentID != nil {
            let whole = replicating[SyncSubscription(collection: subscription.collection)]
            guard let whole, !whole.isEmpty else { return Array((replicating[subscription] ?? [:]).values) }
            var found = whole
            found.merge(replicating[subscription] ?? [:]) { first, _ in first }
            return Array(found.values)
        }
        var found: [ObjectIdentifier: PeerConnection] = [:]
        for (key, holders) in replicating where key.collection == subscription.collection {
            found.merge(holders) { first, _ in first }
        }
        return Array(found.values)
    }

    /// The connections a change to `subscription` concerns: those replicating it, and those
    /// whose remote lists its collection (a drawing created or renamed changes their listing).
    func connections(reachedBy subscription: SyncSubscription) -> [PeerConnection] {
        var found = connections(overlapping: subscription)
        guard let listing = listingServers[subscription.collection], !listing.isEmpty else { return found }
        var seen = Set(found.map(ObjectIdentifier.init))
        for (id, connection) in listing where seen.insert(id).inserted {
            found.append(connection)
        }
        return found
    }

    /// What the open connections replicate now (a relay on PostgreSQL keeps these documents in
    /// memory and lets the others go).
    public var replicatedSubscriptions: Set<SyncSubscription> {
        Set(replicating.keys)
    }

    /// Brings the node's indexes up to date with what a connection's session does now: the
    /// subscriptions it replicates and the listings it serves (both only grow while it is open),
    /// and whether it awaits durability.
    func index(_ connection: PeerConnection) {
        let id = ObjectIdentifier(connection)
        guard connections[id] != nil else { return }
        let subscriptions = connection.session.replicatedSubscriptions
        for subscription in subscriptions.dropFirst(connection.indexedSubscriptionCount) {
            replicating[subscription, default: [:]][id] = connection
        }
        connection.indexedSubscriptionCount = subscriptions.count
        let listings = connection.session.servedListings
        if listings.count != connection.indexedListingCount {
            for collection in listings { listingServers[collection, default: [:]][id] = connection }
            connection.indexedListingCount = listings.count
        }
        let awaits = connection.session.awaitsDurability
        awaitingDurability[id] = awaits ? connection : nil
        connection.isIndexedAsAwaitingDurability = awaits
    }

    func unindex(_ connection: PeerConnection) {
        let id = ObjectIdentifier(connection)
        for subscription in connection.session.replicatedSubscriptions {
            replicating[subscription]?[id] = nil
            if replicating[subscription]?.isEmpty == true { replicating[subscription] = nil }
        }
        connection.indexedSubscriptionCount = 0
        for collection in connection.session.servedListings {
            listingServers[collection]?[id] = nil
            if listingServers[collection]?.isEmpty == true { listingServers[collection] = nil }
        }
        connection.indexedListingCount = 0
        awaitingDurability[id] = nil
        connection.isIndexedAsAwaitingDurability = false
    }
}

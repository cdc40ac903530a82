/// Which connections a change reaches. A relay of a thousand clients on a hundred drawings
/// offers a stroke to the few sessions that replicate its drawing, found by subscription,
/// rather than asking every session whether it wants it.
extension SyncNode {
    /// The connections replicating something that overlaps `subscription` (see
    /// `SyncSubscription.overlaps`), each once.
    func connections(overlapping subscription: SyncSubscription) -> [PeerConnection] {
        var found: [ObjectIdentifier: PeerConnection] = [:]
        if subscription.documentID != nil {
            for key in [subscription, SyncSubscription(collection: subscription.collection)] {
                found.merge(replicating[key] ?? [:]) { first, _ in first }
            }
        } else {
            for (key, holders) in replicating where key.collection == subscription.collection {
                found.merge(holders) { first, _ in first }
            }
        }
        return Array(found.values)
    }

    /// The connections a change to `subscription` concerns: those replicating it, and those
    /// whose remote lists its collection (a drawing created or renamed changes their listing).
    func connections(reachedBy subscription: SyncSubscription) -> [PeerConnection] {
        var found = connections(overlapping: subscription)
        var seen = Set(found.map(ObjectIdentifier.init))
        for connection in connections.values
        where connection.session.servesListing(of: subscription.collection)
            && seen.insert(ObjectIdentifier(connection)).inserted
        {
            found.append(connection)
        }
        return found
    }

    /// What the open connections replicate now (a relay on PostgreSQL keeps these documents in
    /// memory and lets the others go).
    public var replicatedSubscriptions: Set<SyncSubscription> {
        Set(replicating.keys)
    }

    /// Adds the subscriptions a connection's session replicates since it was last indexed.
    func indexSubscriptions(of connection: PeerConnection) {
        let subscriptions = connection.session.replicatedSubscriptions
        guard connections[ObjectIdentifier(connection)] != nil else { return }
        for subscription in subscriptions.dropFirst(connection.indexedSubscriptionCount) {
            replicating[subscription, default: [:]][ObjectIdentifier(connection)] = connection
        }
        connection.indexedSubscriptionCount = subscriptions.count
    }

    func unindexSubscriptions(of connection: PeerConnection) {
        for subscription in connection.session.replicatedSubscriptions {
            replicating[subscription]?[ObjectIdentifier(connection)] = nil
            if replicating[subscription]?.isEmpty == true { replicating[subscription] = nil }
        }
        connection.indexedSubscriptionCount = 0
    }
}

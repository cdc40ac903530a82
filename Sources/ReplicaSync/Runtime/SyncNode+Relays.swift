import EventRuntime

/// Dialling relays that keep in memory only what their clients hold: the subscriptions such a
/// relay is asked for, grown as drawings are created or opened, and the listing of what else it
/// has.
extension SyncNode {
    /// As `connect(toFirstOf:)`, for relays that keep in memory only what their clients hold:
    /// the sessions subscribe to `subscriptions` only (each a document of `collection`, say) and
    /// ask for the listing of `collection`, which `listing(of:)` then holds.
    public func connect(
        toFirstOf endpoints: [SocketEndpoint], subscribing subscriptions: [SyncSubscription],
        listing collection: String
    ) {
        guard let first = endpoints.first else { return }
        subscribeOnRelays(subscriptions)
        connect(DialTarget(endpoints: endpoints, listing: collection), key: first)
    }

    /// Adds subscriptions on the relays dialled with a listing, on their open sessions too (a
    /// drawing created here, or one opened that was only listed).
    public func subscribeOnRelays(_ subscriptions: [SyncSubscription]) {
        let added = subscriptions.filter { !relaySubscriptions.contains($0) }
        guard !added.isEmpty else { return }
        relaySubscriptions += added
        for connection in Array(connections.values) where connection.listsCollection {
            connection.drive { session, now in added.flatMap { session.subscribe($0, now: now) } }
        }
    }

    /// The listing of `collection` from the relays this node is connected to, merged.
    public func listing(of collection: String) -> [String: SyncListingEntry] {
        var merged: [String: SyncListingEntry] = [:]
        for connection in connections.values {
            merged.merge(connection.session.listing(of: collection) ?? [:]) { first, _ in first }
        }
        return merged
    }

    /// Whether asking the relays for the listing of `collection` is over for now: a relay's
    /// listing is in, or every relay dialled with it was tried and failed (none may be
    /// reachable; the redials go on).
    public func listingIsSettled(of collection: String) -> Bool {
        let targets = dialTargets.values.filter { $0.listing == collection }
        if targets.isEmpty { return true }
        if connections.values.contains(where: { $0.session.listing(of: collection) != nil }) { return true }
        return targets.allSatisfy { $0.failures >= $0.endpoints.count }
    }
}

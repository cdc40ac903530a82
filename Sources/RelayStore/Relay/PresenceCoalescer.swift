import MonotonicTime

/// Holds presence changes back so that each peer's reach the other relays at most once per
/// `interval` (20 a second by default): a change inside the interval replaces the one waiting,
/// and the latest goes out when the interval ends. A departure is never held back behind an
/// update, and an update after a departure replaces it. Pure: `now` comes in.
public struct PresenceCoalescer: Sendable {
    public var interval: Duration
    private var lastSent: [UInt64: SyncInstant] = [:]
    private var waiting: [UInt64: PresenceNotice.Change] = [:]

    public init(interval: Duration = .milliseconds(50)) {
        self.interval = interval
    }

    /// Offers a change; returns it when it may go out now, else keeps it for `due(now:)`.
    public mutating func offer(_ change: PresenceNotice.Change, peerID: UInt64, now: SyncInstant)
        -> PresenceNotice.Change?
    {
        if case .left = change {
            waiting[peerID] = nil
            lastSent[peerID] = nil
            return change
        }
        if let last = lastSent[peerID], now.since(last) < interval {
            waiting[peerID] = change
            return nil
        }
        waiting[peerID] = nil
        lastSent[peerID] = now
        return change
    }

    /// The changes whose interval has ended, in peer order.
    public mutating func due(now: SyncInstant) -> [(peerID: UInt64, change: PresenceNotice.Change)] {
        var ready: [(peerID: UInt64, change: PresenceNotice.Change)] = []
        for (peerID, change) in waiting.sorted(by: { $0.key < $1.key }) {
            if let last = lastSent[peerID], now.since(last) < interval { continue }
            ready.append((peerID, change))
        }
        for (peerID, _) in ready {
            waiting[peerID] = nil
            lastSent[peerID] = now
        }
        return ready
    }

    /// When `due` next has something, nil when nothing waits.
    public var nextDeadline: SyncInstant? {
        waiting.keys.compactMap { lastSent[$0].map { $0 + interval } }.min()
    }
}

import Glibc

/// When a relay on PostgreSQL compacts its documents and whom it waits for (see
/// `RelayReplica+Compaction`). The defaults are the SQLite replica's: clients count for 30
/// days after they were last heard about a document, and a document is compacted when at
/// least 256 events, and a quarter of its events, would go.
public struct RelayCompactionConfiguration {
    /// Wall time in milliseconds since 1970: when a client was heard from. Relays of one
    /// database compare each other's times, so they should keep their clocks roughly right
    /// (a minute off is nothing against 30 days).
    public var wallClock: () -> Int64
    /// A client not heard from about a document for this long stops holding its compaction
    /// back; when it returns it is sent the document's whole state.
    public var peerRetentionMilliseconds: Int64 = 30 * 24 * 3_600_000
    /// The fewest events a compaction must drop (and at least a quarter of the document's).
    public var minimumDroppedEvents = 256
    /// How often the relay takes one step: writing what its clients hold, forgetting clients
    /// past the retention time, or compacting one document. One statement a step.
    public var stepInterval: Duration = .seconds(1)
    /// The least time between two compactions of one document by this relay.
    public var documentInterval: Duration = .seconds(60)
    /// How often clients past the retention time are forgotten.
    public var forgetInterval: Duration = .seconds(3_600)
    /// Off: the relay still records what its clients hold (other relays compact with it), but
    /// compacts nothing itself.
    public var compactsAutomatically = true

    public init(wallClock: @escaping () -> Int64 = RelayCompactionConfiguration.systemWallClock) {
        self.wallClock = wallClock
    }

    public static func systemWallClock() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// An unchanged version of a client is written again after this long, so its row's last
    /// seen time stays well inside the retention time without a write per acknowledgement.
    var lastSeenResolution: Int64 { min(3_600_000, peerRetentionMilliseconds / 4) }
}

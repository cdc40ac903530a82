import Glibc
import ReplicaCore

/// Options for opening a replica; nondeterminism (wall time, peer id) comes in here.
public struct ReplicaConfiguration {
    /// Wall time in milliseconds since 1970; stamps every write (through the hybrid clock).
    public var wallClock: () -> Int64
    /// The peer id of a store created by this open (tests); an existing store keeps its own.
    public var peerID: PeerID?
    /// How long SQLite waits for another connection's lock before failing.
    public var busyTimeoutMilliseconds: Int32
    /// How far ahead of wall time a remote timestamp may move this replica's clock.
    public var maximumClockDrift: Int64
    /// Events per snapshot part: one background step (`Replica.backgroundStep`, run by the loop
    /// when it is idle) writes one part, so this bounds the work of one turn of the loop.
    public var checkpointPartEvents: Int
    /// A document's snapshot is rewritten once its log holds this many events and as many as
    /// the snapshot (so an event is rewritten a bounded number of times).
    public var checkpointMinimumLogEvents: Int
    /// How many pages SQLite's write-ahead log may hold before a background step checkpoints
    /// it into the database file; a commit checkpoints past twice as many, which by default is
    /// where SQLite's own checkpoint inside a commit (replaced by this) runs: `WALCheckpointer`.
    public var logCheckpointPages = 500
    /// Whether background steps compact documents (see `Replica+Compaction`).
    public var compactsAutomatically = true
    /// A document is compacted outside a checkpoint only when at least this many of its events,
    /// and a quarter of them, would go.
    public var compactionMinimumEvents = 256
    /// How long a peer that is not heard from holds compaction back (30 days); after that it is
    /// sent a document's whole state when it returns.
    public var peerRetentionMilliseconds: Int64 = 30 * 24 * 3_600_000
    /// A peer's delta whose received blocks hold at least this many bytes (all of them new
    /// events) is stored on another thread while it merges (`Replica.apply`); smaller ones are
    /// stored after the merge, where handing the write over would cost more than it saves. With
    /// one processor online, never (the two would take turns).
    public var concurrentWriteMinimumBytes = sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1 ? 64 * 1024 : Int.max

    public init(
        wallClock: @escaping () -> Int64 = ReplicaConfiguration.systemWallClock, peerID: PeerID? = nil,
        busyTimeoutMilliseconds: Int32 = 5_000, maximumClockDrift: Int64 = 60_000,
        checkpointPartEvents: Int = 256, checkpointMinimumLogEvents: Int = 256
    ) {
        self.wallClock = wallClock
        self.peerID = peerID
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.maximumClockDrift = maximumClockDrift
        self.checkpointPartEvents = checkpointPartEvents
        self.checkpointMinimumLogEvents = checkpointMinimumLogEvents
    }

    /// The system's real-time clock in milliseconds.
    public static func systemWallClock() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec) / 1_000_000
    }
}

/// A hybrid logical clock (Kulkarni et al.): readings never go backwards, follow the wall clock
/// when it is ahead, and move past every remote timestamp this replica has accepted.
///
/// Wall time is passed in on every call, so the clock itself is deterministic.
public struct HybridClock: Equatable, Sendable {
    /// The highest reading handed out or observed.
    public private(set) var latest: HybridTimestamp
    /// How far ahead of local wall time a remote timestamp may pull this clock. Remote readings
    /// further ahead are still merged as data, but the clock does not follow them (see
    /// DECISIONS-ReplicaStore.md, "clock skew").
    public var maximumForwardDrift: Int64

    public init(latest: HybridTimestamp = .zero, maximumForwardDrift: Int64 = 60_000) {
        self.latest = latest
        self.maximumForwardDrift = maximumForwardDrift
    }

    /// A reading for a new local write, strictly greater than every earlier reading.
    public mutating func tick(wall: Int64) -> HybridTimestamp {
        if wall > latest.milliseconds {
            latest = HybridTimestamp(milliseconds: wall, counter: 0)
        } else if latest.counter == UInt32.max {
            latest = HybridTimestamp(milliseconds: latest.milliseconds + 1, counter: 0)
        } else {
            latest.counter += 1
        }
        return latest
    }

    /// Moves the clock past a remote reading, unless that reading is implausibly far in the future.
    public mutating func observe(_ remote: HybridTimestamp, wall: Int64) {
        guard remote > latest else { return }
        let (limit, overflow) = wall.addingReportingOverflow(maximumForwardDrift)
        guard overflow || remote.milliseconds <= limit else { return }
        latest = remote
    }
}

/// A point on a monotonic clock in milliseconds. A plain value with no clock behind it: the pure
/// session takes `now` as an argument, and only `EventRuntime` reads the real clock.
public struct SyncInstant: Comparable, Hashable, Sendable {
    public var milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    public static func < (lhs: SyncInstant, rhs: SyncInstant) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }

    public static func + (lhs: SyncInstant, rhs: Duration) -> SyncInstant {
        SyncInstant(milliseconds: lhs.milliseconds &+ rhs.wholeMilliseconds)
    }

    /// The time from `earlier` to this instant.
    public func since(_ earlier: SyncInstant) -> Duration {
        .milliseconds(milliseconds &- earlier.milliseconds)
    }
}

extension Duration {
    /// Whole milliseconds, rounded toward zero.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds &* 1000 &+ attoseconds / 1_000_000_000_000_000
    }
}

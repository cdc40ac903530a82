import Glibc
import MonotonicTime

/// Where a loop reads its time: the system's monotonic clock, or anything a test injects.
public struct MonotonicClock: Sendable {
    private let read: @Sendable () -> SyncInstant

    public init(_ read: @escaping @Sendable () -> SyncInstant) {
        self.read = read
    }

    /// `CLOCK_MONOTONIC` in milliseconds: never jumps with the wall clock.
    public static let system = MonotonicClock {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return SyncInstant(milliseconds: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
    }

    public func now() -> SyncInstant {
        read()
    }
}

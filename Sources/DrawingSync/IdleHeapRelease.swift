/// When an interactive process gives its free heap back while nobody is using it: once, a quiet
/// period after the last activity, and only if there was activity since it last did.
///
/// Frames, erases, peers' changes and a drawing switched to free what they built, and glibc keeps
/// freed blocks resident for reuse: after an hour of drawing on 100,000 strokes, or after closing
/// a large drawing for a small one, the process would stay as large as it ever was. The release
/// (`DrawingSyncCoordinator.releaseHeap`) walks the heap, milliseconds at 100,000 strokes, so it
/// waits for a pause no user notices rather than following work as it happens. A state machine
/// with no clock of its own, like `FlushDebouncer`: the driver tells it the time.
public struct IdleHeapRelease: Sendable {
    /// What the driver does after telling it the time.
    public enum Action: Equatable, Sendable {
        /// Nothing happened since the last release.
        case idle
        /// Come back at this time (milliseconds).
        case wait(until: Int64)
        /// Quiet long enough: release now.
        case release
    }

    /// Milliseconds of quiet before a release (the app: 3 seconds).
    public let quietPeriod: Int64
    /// The last activity not yet followed by a release.
    private var lastActivity: Int64?

    public init(quietPeriod: Int64 = 3_000) {
        self.quietPeriod = max(0, quietPeriod)
    }

    /// When the driver must look again, if a release is owed.
    public var deadline: Int64? { lastActivity.map { $0 + quietPeriod } }

    /// Something happened at `now` (a frame was drawn): the quiet period starts again.
    public mutating func noteActivity(now: Int64) {
        lastActivity = max(lastActivity ?? now, now)
    }

    /// Tells it the time; returns `.release` once, when the quiet period after the last activity
    /// has passed.
    public mutating func poll(now: Int64) -> Action {
        guard let deadline else { return .idle }
        guard now >= deadline else { return .wait(until: deadline) }
        lastActivity = nil
        return .release
    }
}

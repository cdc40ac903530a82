/// The coordinator's trailing-edge debounce, as a state machine with no clock of its own.
///
/// Every canvas edit restarts the quiet period; when the driver reaches the deadline it calls
/// `poll(now:)` and gets `.flush` exactly once. The driver passes the current time in and sleeps
/// until `deadline`, so tests run the timeline on a manual clock.
public struct FlushDebouncer: Sendable {
    /// What the driver does after telling the debouncer the time.
    public enum Action: Equatable, Sendable {
        /// Nothing is pending.
        case idle
        /// Edits are pending; come back at this time (milliseconds).
        case wait(until: Int64)
        /// The quiet period is over: flush now.
        case flush
    }

    private enum State: Equatable, Sendable {
        case idle
        case pending(deadline: Int64)
    }

    /// The quiet period in milliseconds (100 in the app).
    public let quietPeriod: Int64
    private var state: State = .idle

    public init(quietPeriod: Int64 = 100) {
        self.quietPeriod = max(0, quietPeriod)
    }

    /// The time the driver must wake up at, if edits are pending.
    public var deadline: Int64? {
        if case .pending(let deadline) = state { return deadline }
        return nil
    }

    /// A canvas edit happened at `now`: the quiet period starts again.
    @discardableResult
    public mutating func edited(now: Int64) -> Action {
        state = .pending(deadline: now + quietPeriod)
        return .wait(until: now + quietPeriod)
    }

    /// Tells the debouncer the time; returns `.flush` once the deadline has passed.
    public mutating func poll(now: Int64) -> Action {
        switch state {
        case .idle:
            return .idle
        case .pending(let deadline) where now >= deadline:
            state = .idle
            return .flush
        case .pending(let deadline):
            return .wait(until: deadline)
        }
    }

    /// A failed flush: try again after another quiet period.
    public mutating func retry(now: Int64) {
        state = .pending(deadline: now + quietPeriod)
    }

    /// Drops pending edits without flushing (the drawing was closed after a final flush).
    public mutating func reset() {
        state = .idle
    }
}

import MonotonicTime

/// What a state machine's driver needs from the loop it runs on: the loop's time, timers, and
/// descriptors to watch. `PollEventLoop` is the real one (`poll(2)` and the monotonic clock);
/// `ManualEventLoop` is the test's, where time moves only when the test moves it.
///
/// Every member is called on the loop's thread.
public protocol EventLoop: AnyObject {
    /// The loop's current time: the clock's at the start of the callback being run.
    var now: SyncInstant { get }

    /// Watches a descriptor for input (replacing an earlier watch of it).
    func register(_ descriptor: Int32, onReadable: @escaping () -> Void)

    /// Asks for a callback when the descriptor can be written (nil stops asking).
    func setWritable(_ descriptor: Int32, _ onWritable: (() -> Void)?)

    func unregister(_ descriptor: Int32)

    /// Runs `handler` once `deadline` has passed; timers that are due together run in deadline
    /// order, then in the order they were scheduled.
    @discardableResult
    func schedule(at deadline: SyncInstant, _ handler: @escaping () -> Void) -> EventLoopTimer

    /// Forgets a timer that has not fired (a fired or cancelled one is ignored).
    func cancel(_ timer: EventLoopTimer)
}

/// A scheduled timer, for cancelling it.
public struct EventLoopTimer: Hashable, Sendable {
    /// Increasing per loop: a later timer has a larger value.
    public let sequence: UInt64

    public init(sequence: UInt64) {
        self.sequence = sequence
    }
}

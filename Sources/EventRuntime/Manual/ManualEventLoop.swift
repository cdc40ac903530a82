import MonotonicTime

/// A loop for tests, after swift-nio's `EmbeddedEventLoop`: time stands still until the test
/// moves it, timers fire in deadline order (then in the order they were scheduled), and a
/// registered descriptor becomes readable or writable only when the test says so. Nothing runs on
/// its own and nothing sleeps, so a test of timeouts and redials takes no real time.
public final class ManualEventLoop: EventLoop {
    public private(set) var now: SyncInstant
    private var callbacks = EventLoopCallbacks()

    public init(now: SyncInstant = SyncInstant(milliseconds: 0)) {
        self.now = now
    }

    public func register(_ descriptor: Int32, onReadable: @escaping () -> Void) {
        callbacks.register(descriptor, onReadable: onReadable)
    }

    public func setWritable(_ descriptor: Int32, _ onWritable: (() -> Void)?) {
        callbacks.setWritable(descriptor, onWritable)
    }

    public func unregister(_ descriptor: Int32) {
        callbacks.unregister(descriptor)
    }

    @discardableResult
    public func schedule(at deadline: SyncInstant, _ handler: @escaping () -> Void) -> EventLoopTimer {
        callbacks.schedule(at: deadline, handler)
    }

    public func cancel(_ timer: EventLoopTimer) {
        callbacks.removeTimer(timer.sequence)
    }

    // MARK: What the test drives

    /// The earliest deadline still scheduled.
    public var nextDeadline: SyncInstant? {
        callbacks.nextDeadline()
    }

    /// Whether anything watches the descriptor.
    public func isRegistered(_ descriptor: Int32) -> Bool {
        callbacks.watches[descriptor] != nil
    }

    /// Runs the descriptor's read callback, as if input arrived; false if nothing watches it.
    @discardableResult
    public func fireReadable(_ descriptor: Int32) -> Bool {
        guard let watch = callbacks.watches[descriptor] else { return false }
        watch.onReadable()
        runDueTimers()
        return true
    }

    /// Runs the descriptor's write callback, as if there were room; false if none is set.
    @discardableResult
    public func fireWritable(_ descriptor: Int32) -> Bool {
        guard let onWritable = callbacks.watches[descriptor]?.onWritable else { return false }
        onWritable()
        runDueTimers()
        return true
    }

    /// One turn, as one iteration of `PollEventLoop.runOnce(maximumWait:)` in which no descriptor
    /// became ready: time moves on to the nearest deadline or by `maximumWait`, whichever is
    /// sooner, then the timers due that were scheduled before the turn run. What they schedule
    /// for now waits for the next turn, so bytes sent in one turn are read in the next, as over
    /// a socket.
    public func runOnce(maximumWait: Duration) {
        let turnEnd = callbacks.lastTimer
        var wait = maximumWait.wholeMilliseconds
        if let nearest = nextDeadline {
            wait = max(0, min(wait, nearest.milliseconds - now.milliseconds))
        }
        now = now + .milliseconds(wait)
        while let timer = callbacks.popDueTimer(by: now, scheduledBy: turnEnd) {
            timer.handler()
        }
    }

    /// Runs every timer due by now, including those that due timers schedule for now.
    public func runDueTimers() {
        while let timer = callbacks.popDueTimer(by: now, scheduledBy: .max) {
            timer.handler()
        }
    }

    /// Moves time forward by `duration`, firing every timer on the way at its own deadline.
    public func advance(by duration: Duration) {
        advance(to: now + duration)
    }

    /// Moves time forward to `instant` (never back), firing every timer on the way at its deadline.
    public func advance(to instant: SyncInstant) {
        runDueTimers()
        while let timer = callbacks.popDueTimer(by: instant, scheduledBy: .max) {
            now = max(now, timer.deadline)
            timer.handler()
            runDueTimers()
        }
        now = max(now, instant)
    }

    /// Runs what is due, then jumps from deadline to deadline until `condition` holds or
    /// `timeout` of virtual time has passed; returns whether it holds. The same contract as
    /// `PollEventLoop.run(until:timeout:)`, with no real time spent.
    @discardableResult
    public func run(until condition: () -> Bool, timeout: Duration) -> Bool {
        let deadline = now + timeout
        runDueTimers()
        while !condition() {
            guard let next = nextDeadline, next <= deadline else {
                advance(to: deadline)
                return condition()
            }
            advance(to: next)
        }
        return true
    }
}

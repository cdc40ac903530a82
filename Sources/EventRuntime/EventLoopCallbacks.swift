import MonotonicTime

/// The watched descriptors and scheduled timers of a loop, kept the same way by `PollEventLoop`
/// and `ManualEventLoop`; each loop decides only when they run.
struct EventLoopCallbacks {
    struct Watch {
        var onReadable: () -> Void
        var onWritable: (() -> Void)?
    }

    typealias Timer = TimerQueue.Timer

    private(set) var watches: [Int32: Watch] = [:]
    private var timers = TimerQueue()

    /// The sequence of the timer scheduled last.
    var lastTimer: UInt64 { timers.lastSequence }

    /// Timers scheduled and neither fired nor cancelled.
    var timerCount: Int { timers.count }

    mutating func register(_ descriptor: Int32, onReadable: @escaping () -> Void) {
        watches[descriptor] = Watch(onReadable: onReadable, onWritable: nil)
    }

    mutating func setWritable(_ descriptor: Int32, _ onWritable: (() -> Void)?) {
        watches[descriptor]?.onWritable = onWritable
    }

    mutating func unregister(_ descriptor: Int32) {
        watches[descriptor] = nil
    }

    mutating func schedule(at deadline: SyncInstant, _ handler: @escaping () -> Void) -> EventLoopTimer {
        EventLoopTimer(sequence: timers.schedule(at: deadline, handler))
    }

    mutating func removeTimer(_ sequence: UInt64) {
        timers.remove(sequence)
    }

    /// The earliest deadline still scheduled.
    mutating func nextDeadline() -> SyncInstant? {
        timers.earliest()?.timer.deadline
    }

    /// Takes out the next timer due by `now` among those scheduled up to `lastScheduled`.
    mutating func popDueTimer(by now: SyncInstant, scheduledBy lastScheduled: UInt64) -> Timer? {
        timers.popDue(by: now, scheduledBy: lastScheduled)
    }
}

import MonotonicTime

/// The watched descriptors and scheduled timers of a loop, kept the same way by `PollEventLoop`
/// and `ManualEventLoop`; each loop decides only when they run.
struct EventLoopCallbacks {
    struct Watch {
        var onReadable: () -> Void
        var onWritable: (() -> Void)?
    }

    typealias Timer = (deadline: SyncInstant, handler: () -> Void)

    private(set) var watches: [Int32: Watch] = [:]
    /// By sequence: a later timer has a larger key.
    private(set) var timers: [UInt64: Timer] = [:]
    /// The sequence of the timer scheduled last.
    private(set) var lastTimer: UInt64 = 0

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
        lastTimer += 1
        timers[lastTimer] = (deadline, handler)
        return EventLoopTimer(sequence: lastTimer)
    }

    mutating func removeTimer(_ sequence: UInt64) {
        timers[sequence] = nil
    }

    /// The earliest deadline still scheduled.
    var nextDeadline: SyncInstant? {
        timers.values.min { $0.deadline < $1.deadline }?.deadline
    }
}

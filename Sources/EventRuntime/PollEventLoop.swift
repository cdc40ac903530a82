import Glibc
import MonotonicTime
import Synchronization

/// One thread's descriptor loop: registered descriptors with read and write callbacks, timers with
/// deadlines (the wait's timeout is the nearest one), and a wake-up pipe through which other
/// threads hand work to the loop. It waits with `epoll(7)` unless asked for `poll(2)`
/// (`DescriptorReadiness`). Time is read from the injected clock. Everything except `execute` and
/// `stop` must be called on the loop's thread.
public final class PollEventLoop: EventLoop, @unchecked Sendable {
    private var callbacks = EventLoopCallbacks()
    private let wakeup: WakePipe
    private let waiter: any ReadinessWaiter
    private let clock: MonotonicClock
    private let inbox = Mutex<(work: [@Sendable () -> Void], stopped: Bool)>(([], false))

    /// A loop scheduling by `clock` (`.system` outside tests), waiting by `readiness`.
    public init(clock: MonotonicClock, readiness: DescriptorReadiness = .epoll) throws(SocketError) {
        self.clock = clock
        do {
            wakeup = try WakePipe()
        } catch {
            throw SocketError(operation: "creating the wake-up pipe", code: error.code)
        }
        switch readiness {
        case .poll:
            waiter = PollReadinessWaiter()
        case .epoll:
            do {
                waiter = try EpollReadinessWaiter()
            } catch {
                throw SocketError(operation: "creating the epoll descriptor", code: error.code)
            }
        }
        waiter.watch(wakeup.readDescriptor, writable: false, anew: true)
    }

    public var now: SyncInstant {
        clock.now()
    }

    /// Watches a descriptor for input (and, when `onWritable` is set, for room to write).
    public func register(_ descriptor: Int32, onReadable: @escaping () -> Void) {
        callbacks.register(descriptor, onReadable: onReadable)
        waiter.watch(descriptor, writable: false, anew: true)
    }

    /// Asks for a callback when the descriptor can be written (nil stops asking).
    public func setWritable(_ descriptor: Int32, _ onWritable: (() -> Void)?) {
        guard callbacks.watches[descriptor] != nil else { return }
        callbacks.setWritable(descriptor, onWritable)
        // Asking for room is told to the kernel again even when it was asked already: a
        // connecting client (libpq moving to the next address) may have closed the descriptor
        // and opened another under the same number. It is rare on the hot path (a write that
        // filled the socket); stopping asking, after every flush, stays free.
        waiter.watch(descriptor, writable: onWritable != nil, anew: onWritable != nil)
    }

    /// Stops watching the descriptor.
    public func unregister(_ descriptor: Int32) {
        callbacks.unregister(descriptor)
        waiter.forget(descriptor)
    }

    @discardableResult
    public func schedule(at deadline: SyncInstant, _ handler: @escaping () -> Void) -> EventLoopTimer {
        callbacks.schedule(at: deadline, handler)
    }

    public func cancel(_ timer: EventLoopTimer) {
        callbacks.removeTimer(timer.sequence)
    }

    /// Runs `work` on the loop thread soon; callable from any thread.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        inbox.withLock { $0.work.append(work) }
        wake()
    }

    /// Makes `run` return after the current iteration; callable from any thread.
    public func stop() {
        inbox.withLock { $0.stopped = true }
        wake()
    }

    /// Runs until `stop` is called.
    public func run() {
        while !(inbox.withLock { $0.stopped }) {
            runOnce(maximumWait: .seconds(60))
        }
    }

    /// Runs until `condition` holds or `timeout` passes; returns whether it holds. For tests and
    /// for headless commands that wait for a state.
    @discardableResult
    public func run(until condition: () -> Bool, timeout: Duration) -> Bool {
        let deadline = now + timeout
        while !condition() {
            guard now < deadline else { return false }
            runOnce(maximumWait: .milliseconds(50))
        }
        return true
    }

    /// One iteration: wait for the nearest deadline or an event, then run what is due.
    public func runOnce(maximumWait: Duration) {
        let start = now
        var wait = maximumWait.wholeMilliseconds
        if let nearest = callbacks.nextDeadline() {
            wait = max(0, min(wait, nearest.milliseconds - start.milliseconds))
        }
        for entry in waiter.wait(milliseconds: Int32(clamping: wait)) {
            if entry.descriptor == wakeup.readDescriptor {
                wakeup.drain()
                continue
            }
            // A callback may have unregistered this descriptor (or another) meanwhile.
            if entry.writable, let onWritable = callbacks.watches[entry.descriptor]?.onWritable {
                onWritable()
            }
            if entry.readable, let watch = callbacks.watches[entry.descriptor] {
                watch.onReadable()
            }
        }
        runInbox()
        runDueTimers()
    }

    /// The timers due now that were scheduled before they started running, in deadline order
    /// (then in the order scheduled); what they schedule for now waits for the next turn.
    private func runDueTimers() {
        let current = now
        let turnEnd = callbacks.lastTimer
        while let timer = callbacks.popDueTimer(by: current, scheduledBy: turnEnd) {
            timer.handler()
        }
    }

    private func runInbox() {
        let work = inbox.withLock { state -> [@Sendable () -> Void] in
            defer { state.work = [] }
            return state.work
        }
        work.forEach { $0() }
    }

    private func wake() {
        wakeup.wake()
    }
}

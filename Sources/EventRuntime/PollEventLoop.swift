import Glibc
import MonotonicTime
import Synchronization

/// One thread's `poll(2)` loop: registered descriptors with read and write callbacks, timers with
/// deadlines (the poll timeout is the nearest one), and a wake-up pipe through which other threads
/// hand work to the loop. Time is read from the injected clock. Everything except `execute` and
/// `stop` must be called on the loop's thread.
public final class PollEventLoop: EventLoop, @unchecked Sendable {
    private var callbacks = EventLoopCallbacks()
    private let wakeup: WakePipe
    private let clock: MonotonicClock
    private let inbox = Mutex<(work: [@Sendable () -> Void], stopped: Bool)>(([], false))

    /// A loop scheduling by `clock` (`.system` outside tests).
    public init(clock: MonotonicClock) throws(SocketError) {
        self.clock = clock
        do {
            wakeup = try WakePipe()
        } catch {
            throw SocketError(operation: "creating the wake-up pipe", code: error.code)
        }
    }

    public var now: SyncInstant {
        clock.now()
    }

    /// Watches a descriptor for input (and, when `onWritable` is set, for room to write).
    public func register(_ descriptor: Int32, onReadable: @escaping () -> Void) {
        callbacks.register(descriptor, onReadable: onReadable)
    }

    /// Asks for a callback when the descriptor can be written (nil stops asking).
    public func setWritable(_ descriptor: Int32, _ onWritable: (() -> Void)?) {
        callbacks.setWritable(descriptor, onWritable)
    }

    /// Stops watching the descriptor.
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
        if let nearest = callbacks.nextDeadline {
            wait = max(0, min(wait, nearest.milliseconds - start.milliseconds))
        }
        var descriptors = [pollfd(fd: wakeup.readDescriptor, events: Int16(POLLIN), revents: 0)]
        for (descriptor, watch) in callbacks.watches.sorted(by: { $0.key < $1.key }) {
            let events = Int16(POLLIN) | (watch.onWritable == nil ? 0 : Int16(POLLOUT))
            descriptors.append(pollfd(fd: descriptor, events: events, revents: 0))
        }
        let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(clamping: wait))
        if ready > 0 {
            if descriptors[0].revents != 0 { wakeup.drain() }
            for entry in descriptors.dropFirst() where entry.revents != 0 {
                // A callback may have unregistered this descriptor (or another) meanwhile.
                if entry.revents & Int16(POLLOUT) != 0,
                    let onWritable = callbacks.watches[entry.fd]?.onWritable
                {
                    onWritable()
                }
                if entry.revents & ~Int16(POLLOUT) != 0, let watch = callbacks.watches[entry.fd] {
                    watch.onReadable()
                }
            }
        }
        runInbox()
        runDueTimers()
    }

    private func runDueTimers() {
        let current = now
        let due = callbacks.timers.filter { $0.value.deadline <= current }.sorted {
            ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key)
        }
        for (id, timer) in due {
            callbacks.removeTimer(id)
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

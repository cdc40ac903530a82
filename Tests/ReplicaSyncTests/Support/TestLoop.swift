import EventRuntime
import MonotonicTime

/// A loop a test can run until a condition holds: the real one (in real time) or the manual one
/// (in virtual time), so helpers such as `converge` serve both.
protocol TestLoop: EventLoop {
    @discardableResult
    func run(until condition: () -> Bool, timeout: Duration) -> Bool

    func runOnce(maximumWait: Duration)
}

extension PollEventLoop: TestLoop {}
extension ManualEventLoop: TestLoop {}

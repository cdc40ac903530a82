import Dispatch
import Glibc
import ReplicaSync
import Synchronization

/// SIGINT and SIGTERM for the headless commands: the default action is replaced by a dispatch
/// signal source whose handler (on a dispatch queue, not in signal context) records the signal and
/// calls the loop's thread-safe `stop()`, which wakes its poll. The loop thread then says goodbye.
final class SyncShutdownSignals: @unchecked Sendable {
    // Unchecked: the sources are only created and cancelled here; the handlers touch only the
    // atomic and the event loop's thread-safe `stop()`.
    private let received = Atomic<Int32>(0)
    private let sources: [any DispatchSourceSignal]

    init(loop: EventLoop, signals: [Int32] = [SIGINT, SIGTERM]) {
        let queue = DispatchQueue(label: "drawtogether.signals")
        sources = signals.map { number in
            signal(number, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: number, queue: queue)
        }
        for (source, number) in zip(sources, signals) {
            source.setEventHandler { [weak self] in
                self?.received.store(number, ordering: .relaxed)
                loop.stop()
            }
            source.resume()
        }
    }

    deinit {
        sources.forEach { $0.cancel() }
    }

    /// The signal that asked to stop, if one did.
    var receivedSignal: Int32? {
        let number = received.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }
}

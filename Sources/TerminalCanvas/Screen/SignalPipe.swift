#if canImport(Glibc)
    import Glibc
#endif

/// A non-blocking pipe a signal handler writes a byte into, so the poll loop wakes up: the
/// only thing a handler can safely do to reach the loop.
final class SignalPipe {
    /// Readable after the handler wrote; the loop polls it.
    let readDescriptor: Int32
    /// What the handler writes to.
    let writeDescriptor: Int32

    init() throws(TerminationSignalsError) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw .cannotCreatePipe(errno: errno) }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// A restarting action for `handler` (or `SIG_DFL`), blocking nothing extra while it runs.
    static func action(_ handler: __sighandler_t?) -> sigaction {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        return action
    }

    /// Unblocks `signals` on this thread. A parent may start us with them blocked (test runners'
    /// threads block several, and the mask is inherited); blocked, they would never arrive.
    static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Every byte written since the last call, oldest first.
    func drain() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(readDescriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer.prefix(count)
        }
        return bytes
    }
}

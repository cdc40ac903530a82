import EventRuntime

#if canImport(Glibc)
    import Glibc
#endif

/// What the signal types share besides their `WakePipe`: how a handler is installed, and
/// unblocking the signals they catch.
enum SignalActions {
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
}

extension WakePipe {
    /// A pipe for a signal handler to write to, its failure as the signal types report it.
    static func forSignals() throws(TerminationSignalsError) -> WakePipe {
        do {
            return try WakePipe()
        } catch {
            throw .cannotCreatePipe(errno: error.code)
        }
    }
}

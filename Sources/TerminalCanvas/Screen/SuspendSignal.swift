import EventRuntime

#if canImport(Glibc)
    import Glibc
#endif

// What the SIGTSTP handler reads: set before the handler is installed.
nonisolated(unsafe) private var suspendPipeWrite: Int32 = -1

private func handleSuspendSignal(_ signal: Int32) {
    let savedErrno = errno
    var byte: UInt8 = 1
    _ = write(suspendPipeWrite, &byte, 1)
    errno = savedErrno
}

/// Ctrl-Z (SIGTSTP) as an event of the loop rather than an instant stop.
///
/// Stopping at once would leave the shell with the alternate screen, raw modes and mouse tracking
/// of a program that is not reading them. Instead the handler wakes the loop; the app saves what
/// is pending, gives the terminal back, and only then calls `stopProcess()`, which stops for real
/// and returns once the shell continues the process (`fg`).
///
/// Create it before `TerminalScreen`. When curses starts and finds SIGTSTP handled already, it
/// never touches the signal; finding it at its default, it installs a handler of its own and,
/// around every screen update (`doupdate`), sets SIGTSTP to be ignored and then puts the handler
/// back, so a Ctrl-Z pressed while a frame was being drawn was lost: under load, one press in
/// thirty did nothing. It puts back the previous handling when it goes away.
public final class SuspendSignal {
    public var fileDescriptor: Int32 { pipe.readDescriptor }
    private let pipe: WakePipe
    private var previous = sigaction()

    public init() throws(TerminationSignalsError) {
        pipe = try WakePipe.forSignals()
        suspendPipeWrite = pipe.writeDescriptor
        SignalActions.unblock([SIGTSTP])
        var action = SignalActions.action(handleSuspendSignal)
        _ = sigaction(SIGTSTP, &action, &previous)
    }

    deinit {
        _ = sigaction(SIGTSTP, &previous, nil)
        suspendPipeWrite = -1
    }

    /// Empties the pipe; true if Ctrl-Z was pressed (or SIGTSTP sent) since the last call.
    public func takeSuspend() -> Bool {
        pipe.drain() > 0
    }

    /// Runs `body` (which sets the terminal's modes) even if this process is no longer in the
    /// terminal's foreground. Run under a wrapper script, the shell sees the job stop as soon as
    /// the wrapper stops on Ctrl-Z and takes the terminal back while the app is still giving it
    /// up; setting modes from the background would then stop the app half way (SIGTTOU).
    public func ignoringBackgroundStops(_ body: () -> Void) {
        var ignore = SignalActions.action(SIG_IGN)
        var previous = sigaction()
        _ = sigaction(SIGTTOU, &ignore, &previous)
        body()
        _ = sigaction(SIGTTOU, &previous, nil)
    }

    /// Stops the process as an uncaught SIGTSTP would, and returns when it is continued.
    ///
    /// With no job-control shell above us (an orphaned process group) the kernel discards the
    /// stop, since nobody could ever continue it, and this returns at once.
    public func stopProcess() {
        var stop = SignalActions.action(SIG_DFL)
        _ = sigaction(SIGTSTP, &stop, nil)
        _ = raise(SIGTSTP)
        var handler = SignalActions.action(handleSuspendSignal)
        _ = sigaction(SIGTSTP, &handler, nil)
    }
}

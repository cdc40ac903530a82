import EventRuntime

#if canImport(Glibc)
    import Glibc
#endif

// What the SIGWINCH handler reads: set before the handler is installed.
nonisolated(unsafe) private var resizePipeWrite: Int32 = -1
nonisolated(unsafe) private var chainedResizeAction = sigaction()

private func handleResizeSignal(_ signal: Int32) {
    let savedErrno = errno
    // ncurses's own handler marks the screen as resized, so its next read returns KEY_RESIZE.
    if let chained = chainedResizeAction.__sigaction_handler.sa_handler,
        chainedResizeAction.sa_flags & SA_SIGINFO == 0
    {
        let address = unsafeBitCast(chained, to: Int.self)
        if address != unsafeBitCast(SIG_DFL, to: Int.self) && address != unsafeBitCast(SIG_IGN, to: Int.self)
        {
            chained(signal)
        }
    }
    var byte: UInt8 = 1
    _ = write(resizePipeWrite, &byte, 1)
    errno = savedErrno
}

/// Makes a terminal resize wake the event loop.
///
/// A poll loop sleeping on standard input would not notice SIGWINCH until the next key press;
/// this handler runs ncurses's own (installed by `TerminalScreen`, so create this after it) and
/// then makes `fileDescriptor` readable. The loop then calls `TerminalScreen.readInputs()`, which
/// reports the resize.
public final class ResizeSignal {
    public var fileDescriptor: Int32 { pipe.readDescriptor }
    private let pipe: WakePipe
    private var previous = sigaction()

    public init() throws(TerminationSignalsError) {
        pipe = try WakePipe.forSignals()
        resizePipeWrite = pipe.writeDescriptor
        _ = sigaction(SIGWINCH, nil, &chainedResizeAction)
        var action = SignalActions.action(handleResizeSignal)
        _ = sigaction(SIGWINCH, &action, &previous)
    }

    deinit {
        _ = sigaction(SIGWINCH, &previous, nil)
        resizePipeWrite = -1
    }

    /// Empties the pipe; true if a resize arrived since the last call.
    public func takeResize() -> Bool {
        pipe.drain() > 0
    }
}

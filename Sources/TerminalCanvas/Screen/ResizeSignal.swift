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
        if address != unsafeBitCast(SIG_DFL, to: Int.self) && address != unsafeBitCast(SIG_IGN, to: Int.self) {
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
    public let fileDescriptor: Int32
    private let writeDescriptor: Int32
    private var previous = sigaction()

    public init() throws(TerminationSignalsError) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw .cannotCreatePipe(errno: errno) }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        fileDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
        resizePipeWrite = writeDescriptor
        _ = sigaction(SIGWINCH, nil, &chainedResizeAction)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handleResizeSignal
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        _ = sigaction(SIGWINCH, &action, &previous)
    }

    deinit {
        _ = sigaction(SIGWINCH, &previous, nil)
        resizePipeWrite = -1
        close(fileDescriptor)
        close(writeDescriptor)
    }

    /// Empties the pipe; true if a resize arrived since the last call.
    public func takeResize() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        var any = false
        while read(fileDescriptor, &buffer, buffer.count) > 0 { any = true }
        return any
    }
}

import EventRuntime

#if canImport(Glibc)
    import Glibc
#endif

// State the signal handler reads. A handler may only touch plain memory and call
// async-signal-safe functions, so this is a handful of C-like globals, all assigned (and so
// initialized) before a handler can run.
nonisolated(unsafe) private var signalPipeWrite: Int32 = -1
nonisolated(unsafe) private var signalsPending: Int32 = 0
nonisolated(unsafe) private var lastResortDescriptor: Int32 = -1
nonisolated(unsafe) private var lastResortModes = termios()

/// Turns every mouse mode off, leaves the alternate screen and shows the cursor: what a killed
/// curses program would otherwise leave behind. A StaticString, so the handler allocates nothing.
private let lastResortSequence: StaticString =
    "\u{1B}[?1003l\u{1B}[?1002l\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?1049l\u{1B}[?25h\r\n"

private func handleTerminationSignal(_ signal: Int32) {
    let savedErrno = errno
    signalsPending += 1
    if signalsPending > 1 {
        // The loop has not got round to the first signal: the user means it. Put the terminal
        // right by hand and die of the signal, as if nothing had caught it.
        if lastResortDescriptor >= 0 {
            _ = write(
                lastResortDescriptor, lastResortSequence.utf8Start, lastResortSequence.utf8CodeUnitCount)
            _ = tcsetattr(lastResortDescriptor, TCSANOW, &lastResortModes)
        }
        _ = Glibc.signal(signal, SIG_DFL)
        _ = raise(signal)
    }
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWrite, &byte, 1)
    errno = savedErrno
}

/// Catches SIGINT, SIGTERM and SIGHUP for the event loop: each one makes `fileDescriptor`
/// readable, and the loop shuts down in order (restoring the terminal, closing the replica).
///
/// A second signal before the loop has taken the first restores the terminal modes from the
/// handler and ends the process, so a stuck loop can still be interrupted.
public final class TerminationSignals {
    public static let caught: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Readable after a signal arrived; wait on it in `poll`.
    public var fileDescriptor: Int32 { pipe.readDescriptor }
    private let pipe: WakePipe
    private var previousActions: [(Int32, sigaction)] = []

    /// Installs the handlers. One instance at a time: a second replaces the first's pipe.
    public init() throws(TerminationSignalsError) {
        pipe = try WakePipe.forSignals()
        signalsPending = 0
        signalPipeWrite = pipe.writeDescriptor
        SignalActions.unblock(Self.caught)
        for signal in Self.caught {
            var action = SignalActions.action(handleTerminationSignal)
            var previous = sigaction()
            if sigaction(signal, &action, &previous) == 0 { previousActions.append((signal, previous)) }
        }
    }

    deinit {
        for (signal, action) in previousActions {
            var action = action
            _ = sigaction(signal, &action, nil)
        }
        signalPipeWrite = -1
    }

    /// The signals that arrived since the last call, oldest first; empty when none did.
    public func takeSignals() -> [Int32] {
        var signals: [Int32] = []
        pipe.drain { signals.append(Int32($0)) }
        signalsPending = 0
        return signals
    }

    /// Gives the handler the terminal and the modes it had before curses, to put back if it has to.
    static func armLastResortRestore(descriptor: Int32, modes: termios) {
        lastResortModes = modes
        lastResortDescriptor = descriptor
    }

    static func disarmLastResortRestore() {
        lastResortDescriptor = -1
    }
}

/// Why the signal handlers could not be installed.
public enum TerminationSignalsError: Error, Equatable, CustomStringConvertible {
    case cannotCreatePipe(errno: Int32)

    public var description: String {
        switch self {
        case .cannotCreatePipe(let code):
            "cannot create the pipe that signals are reported through (errno \(code)): too many open files?"
        }
    }
}

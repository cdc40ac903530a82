import EventRuntime
import ReplicaSync
import TerminalCanvas

/// SIGINT, SIGTERM and SIGHUP for the headless commands, through the same self-pipe the
/// interactive canvas uses (`TerminationSignals`): the pipe is one more descriptor of the event
/// loop, so the loop thread itself sees the signal (the command's loop checks `receivedSignal`
/// after each turn) and then says goodbye to its peers.
final class SyncShutdownSignals {
    private let signals: TerminationSignals
    /// The signal that asked to stop, if one did.
    private(set) var receivedSignal: Int32?

    init(loop: PollEventLoop) throws {
        signals = try TerminationSignals()
        loop.register(signals.fileDescriptor) { [unowned self] in
            guard let first = signals.takeSignals().first else { return }
            receivedSignal = receivedSignal ?? first
        }
    }
}

import Glibc
import Synchronization

/// A long-running child process for end-to-end tests: its standard output and error are
/// collected as they arrive, the test waits for conditions on them (polling, with a deadline),
/// sends signals, and waits for the exit status. Killed with SIGKILL if still running on release.
public final class ChildProcess: Sendable {
    private let process: SpawnedProcess
    private let output = Mutex<(out: [UInt8], err: [UInt8])>(([], []))

    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        process = try SpawnedProcess(
            executable, arguments, environment: environment, standardOutput: .pipe, standardError: .pipe)
        // A reader thread of its own, until both reach end of file (the child's ends close when
        // it exits), on copies of the descriptors that the reader closes: the process object
        // closes its own when it goes, and a number closed under a reader could be reused by
        // another file.
        let copies = [process.standardOutput, process.standardError].map { original in
            original.map { fcntl($0, F_DUPFD_CLOEXEC, 0) } ?? -1
        }
        let reading = SpawnedProcess.detach { [weak self] in
            defer { copies.filter { $0 >= 0 }.forEach { close($0) } }
            SpawnedProcess.read(copies) { index, chunk in
                self?.output.withLock { if index == 0 { $0.out += chunk } else { $0.err += chunk } }
                return true
            }
        }
        guard reading else {
            copies.filter { $0 >= 0 }.forEach { close($0) }
            throw ChildProcessError.noReaderThread(executable)
        }
    }

    public var pid: Int32 { process.pid }
    public var standardOutput: String { String(decoding: output.withLock { $0.out }, as: UTF8.self) }
    public var standardError: String { String(decoding: output.withLock { $0.err }, as: UTF8.self) }

    public func send(_ signal: Int32) {
        process.send(signal)
    }

    /// Polls `condition` every 10 ms until it holds or `timeout` passes; returns whether it held.
    public static func waitFor(timeout: Duration = .seconds(30), _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            usleep(10_000)
        }
        return true
    }

    /// The exit status (or the number of the signal that ended it), nil if still running at the
    /// deadline.
    public func waitForExit(timeout: Duration = .seconds(30)) -> Int32? {
        guard Self.waitFor(timeout: timeout, { !process.isRunning }) else { return nil }
        return process.status
    }
}

/// Why a child process for a test could not be watched.
public enum ChildProcessError: Error, CustomStringConvertible {
    /// No thread could be made to read its output (the child is killed when the object goes).
    case noReaderThread(String)

    public var description: String {
        switch self {
        case .noReaderThread(let executable): "no thread to read the output of \(executable)"
        }
    }
}

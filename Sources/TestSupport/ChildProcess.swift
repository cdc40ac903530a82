import Foundation
import Glibc
import Synchronization

/// A long-running child process for end-to-end tests: its standard output and error are
/// collected as they arrive, the test waits for conditions on them (polling, with a deadline),
/// sends signals, and waits for the exit status. Killed with SIGKILL if still running on release.
public final class ChildProcess: @unchecked Sendable {
    // Unchecked: `process` is only touched from the test's thread; the output buffers are
    // behind a mutex because Foundation fills them from its own threads.
    private let process = Process()
    private let output = Mutex<(out: [UInt8], err: [UInt8])>(([], []))

    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }  // end of file
            self?.output.withLock { $0.out += data }
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            self?.output.withLock { $0.err += data }
        }
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    public var pid: Int32 { process.processIdentifier }
    public var standardOutput: String { String(decoding: output.withLock { $0.out }, as: UTF8.self) }
    public var standardError: String { String(decoding: output.withLock { $0.err }, as: UTF8.self) }

    public func send(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
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
        return process.terminationStatus
    }
}

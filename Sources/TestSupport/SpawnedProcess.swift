import CSpawn
import FoundationEssentials
import Glibc
import Synchronization

/// A child process started with `posix_spawn(3)`: what the tests and the benchmark run (the app,
/// tmux, PostgreSQL's tools), without Foundation's `Process`, so that neither this module nor
/// the benchmark that uses it maps Foundation's libraries (their pages count in the resident
/// memory the benchmark reports).
///
/// The child starts with every signal at its default and none blocked, whatever this process
/// ignores or blocks. Its standard streams are inherited, `/dev/null`, a file, or a pipe whose
/// other end this object holds; every other descriptor of this process is closed in the child
/// (the pipes are made close-on-exec, and the child closes every descriptor above 2 before it
/// starts the program). The exit status is collected once, by `wait()` or by a
/// poll that finds the child gone; a child still running when this object goes is killed.
public final class SpawnedProcess: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable, Equatable {
        /// This process's own stream.
        case inherit
        /// `/dev/null`.
        case null
        /// A pipe: this object holds the end the child does not (`standardOutput` and so on).
        case pipe
        /// A file, created or emptied (for output streams).
        case file(String)
    }

    /// Why a child could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        public var executable: String
        public var step: String
        public var code: Int32

        public var description: String {
            "cannot start \(executable) (\(step)): \(String(cString: strerror(code)))"
        }
    }

    public let pid: pid_t
    /// The write end of the child's standard input, when it is a pipe.
    public let standardInput: Int32?
    /// The read end of the child's standard output, when it is a pipe.
    public let standardOutput: Int32?
    /// The read end of the child's standard error, when it is a pipe.
    public let standardError: Int32?
    /// The exit status once collected (see `status`).
    private let collected = Mutex<Int32?>(nil)

    /// Starts `executable` (a path; nothing is looked up in `PATH`) with `arguments` (without
    /// the program's own name, which is `executable`). `environment` nil inherits this one's.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil, standardInput input: Stream = .null,
        standardOutput output: Stream = .inherit, standardError error: Stream = .inherit
    ) throws(SpawnError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipes: [Int32: (parent: Int32, child: Int32)] = [:]
        func fail(_ step: String, _ code: Int32) -> SpawnError {
            for ends in pipes.values {
                close(ends.parent)
                close(ends.child)
            }
            return SpawnError(executable: executable, step: step, code: code)
        }
        for (descriptor, stream) in [(STDIN_FILENO, input), (STDOUT_FILENO, output), (STDERR_FILENO, error)] {
            switch stream {
            case .inherit:
                break
            case .null:
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_RDWR, 0)
            case .file(let path):
                let flags = descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC
                posix_spawn_file_actions_addopen(&actions, descriptor, path, flags, 0o644)
            case .pipe:
                var ends: [Int32] = [-1, -1]
                guard pipe2(&ends, O_CLOEXEC) == 0 else { throw fail("making a pipe", errno) }
                // The child reads its standard input from the read end and writes the others.
                let (parent, child) = descriptor == STDIN_FILENO ? (ends[1], ends[0]) : (ends[0], ends[1])
                pipes[descriptor] = (parent, child)
                // dup2 clears close-on-exec on the child's copy.
                posix_spawn_file_actions_adddup2(&actions, child, descriptor)
            }
        }
        // Descriptors of this process that are not close-on-exec (another test's, say) stay
        // out of the child: a long-lived child (tmux's server) would keep their files open, and
        // one started with a low open-file limit would have no room left.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        if let currentDirectory {
            posix_spawn_file_actions_addchdir_np(&actions, currentDirectory)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        var noSignal = sigset_t()
        sigemptyset(&noSignal)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setsigmask(&attributes, &noSignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let code = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard code == 0 else { throw fail("posix_spawn", code) }
        for ends in pipes.values { close(ends.child) }
        pid = child
        standardInput = pipes[STDIN_FILENO]?.parent
        standardOutput = pipes[STDOUT_FILENO]?.parent
        standardError = pipes[STDERR_FILENO]?.parent
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            _ = wait()
        }
        for descriptor in [standardInput, standardOutput, standardError].compactMap({ $0 }) {
            close(descriptor)
        }
    }

    /// The exit status, or the number of the signal that ended the child (as Foundation's
    /// `terminationStatus`); nil while it runs. Collects the status when the child has gone.
    public var status: Int32? {
        collected.withLock { status in
            if status == nil { status = Self.collect(pid, blocking: false) }
            return status
        }
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { status == nil }

    /// Waits for the child to exit; its exit status or the number of the signal that ended it.
    @discardableResult
    public func wait() -> Int32 {
        collected.withLock { status in
            while status == nil { status = Self.collect(pid, blocking: true) }
            return status ?? 0
        }
    }

    /// Sends `signal` to the child, unless it is known to have gone.
    public func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Reads every one of `descriptors` to its end, together (`poll(2)`), handing each chunk to
    /// `deliver` with the index of its descriptor as it arrives, until `deliver` says to stop
    /// (returns false) or all have ended. A failed read ends that descriptor as end of file
    /// does; a negative descriptor is skipped.
    public static func read(_ descriptors: [Int32], _ deliver: (Int, ArraySlice<UInt8>) -> Bool) {
        var watched = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while watched.contains(where: { $0.fd >= 0 }) {
            guard poll(&watched, nfds_t(watched.count), -1) >= 0 else {
                if errno == EINTR { continue }
                return
            }
            for index in watched.indices where watched[index].fd >= 0 && watched[index].revents != 0 {
                let count = chunk.withUnsafeMutableBytes {
                    Glibc.read(watched[index].fd, $0.baseAddress, $0.count)
                }
                if count > 0 {
                    guard deliver(index, chunk[0..<count]) else { return }
                } else if !(count < 0 && errno == EINTR) {
                    watched[index].fd = -1  // end of file, or a failed read: nothing more comes
                }
            }
        }
    }

    /// Runs `body` on a thread of its own that nobody joins (a reader of a child's pipes, which
    /// blocks for as long as the child writes); false when no thread could be made (the body
    /// does not run: run here, a reader would block its caller until the child exits).
    public static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
        final class Work: Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                Unmanaged<Work>.fromOpaque(argument).takeRetainedValue().body()
                return nil
            }, work)
        guard started == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// One `waitpid`: the status when the child has exited, nil while it runs (or when waiting
    /// was interrupted).
    private static func collect(_ pid: pid_t, blocking: Bool) -> Int32? {
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
        if result == 0 || (result < 0 && errno == EINTR) { return nil }
        // ECHILD: collected elsewhere; nothing more can be known.
        guard result == pid else { return -1 }
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : signal
    }
}

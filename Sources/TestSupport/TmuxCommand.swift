import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs one tmux client command with every signal unblocked and at its default action.
///
/// Test runner threads block SIGHUP, SIGTERM, SIGCHLD and more, and a child inherits that mask
/// (Foundation's `Process` passes it on). A tmux server started that way never hears its panes
/// die, ignores `kill-server`, and hands the blocked mask to the program under test, which then
/// cannot be interrupted. So tmux is spawned here with a clean mask instead.
///
/// The tmux server outlives the client it forks from, keeping every descriptor it inherited: a
/// pipe of a concurrently running test would then never reach end-of-file. So the child closes
/// every descriptor above 2, and our own pipes are close-on-exec from the start.
enum TmuxCommand {
    /// Held while pipes are made and marked close-on-exec, so no spawn in between can leak them.
    private static let spawnLock = Mutex(())

    private typealias AddCloseFrom =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does
    /// not import; nil on an older C library.
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }

    struct SpawnFailure: Error, CustomStringConvertible {
        var executable: String
        var code: Int32
        var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
    }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws
        -> ProcessResult
    {
        let (pid, output, errors) = try spawnLock.withLock { _ in
            try spawn(executable, arguments, environment: environment)
        }
        defer {
            close(output)
            close(errors)
        }
        let (standardOutput, standardError) = readBoth(output, errors)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED / WEXITSTATUS are macros Swift does not import.
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ProcessResult(status: exitStatus, standardOutput: standardOutput, standardError: standardError)
    }

    /// Starts the child; returns its pid and the read ends of its standard output and error.
    private static func spawn(_ executable: String, _ arguments: [String], environment: [String: String])
        throws
        -> (pid_t, Int32, Int32)
    {
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard pipe(&output) == 0 else { throw SpawnFailure(executable: executable, code: errno) }
        guard pipe(&errors) == 0 else {
            output.forEach { close($0) }
            throw SpawnFailure(executable: executable, code: errno)
        }
        for descriptor in output + errors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        if let addCloseFrom {
            _ = addCloseFrom(&actions, 3)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(output[1])
        close(errors[1])
        guard spawned == 0 else {
            close(output[0])
            close(errors[0])
            throw SpawnFailure(executable: executable, code: spawned)
        }
        return (pid, output[0], errors[0])
    }

    /// Reads two pipes to their ends together, so neither can fill up and stall the child.
    private static func readBoth(_ first: Int32, _ second: Int32) -> (String, String) {
        var collected: [Int32: [UInt8]] = [first: [], second: []]
        var open = [first, second]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&descriptors, nfds_t(descriptors.count), -1) >= 0 || errno == EINTR else { break }
            for descriptor in descriptors where descriptor.revents != 0 {
                let count = read(descriptor.fd, &buffer, buffer.count)
                if count > 0 {
                    collected[descriptor.fd, default: []] += buffer.prefix(count)
                } else if count == 0 || errno != EINTR {
                    open.removeAll { $0 == descriptor.fd }
                }
            }
        }
        return (
            String(decoding: collected[first] ?? [], as: UTF8.self),
            String(decoding: collected[second] ?? [], as: UTF8.self)
        )
    }
}

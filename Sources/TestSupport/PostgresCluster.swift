import FoundationEssentials
import Glibc
import Synchronization

/// A throwaway PostgreSQL cluster for one test run: `initdb` in a temp directory, a server that
/// listens only on a Unix socket in that directory (no TCP port, so parallel runs never collide)
/// with `fsync=off`, stopped at process exit. As root, the server programs run as the `postgres`
/// user (they refuse root). The superuser `relay` connects without a password; every other role
/// must give its password (scram-sha-256), which the password tests need.
public final class PostgresCluster: @unchecked Sendable {
    /// One cluster for the whole test process, started on first use.
    public static let shared: Result<PostgresCluster, PostgresClusterError> = {
        do {
            let cluster = try PostgresCluster()
            atexit { if case .success(let cluster) = PostgresCluster.shared { cluster.stop() } }
            return .success(cluster)
        } catch let error as PostgresClusterError {
            return .failure(error)
        } catch {
            return .failure(PostgresClusterError(step: "starting", output: "\(error)"))
        }
    }()

    public let socketDirectory: String
    private let directory: TemporaryDirectory
    private let binaries: String
    private let dataDirectory: String
    private let fsync: Bool
    /// Whether the server was stopped, and how many databases were made.
    private let counters = Mutex<(stopped: Bool, databases: Int)>((false, 0))

    private init(fsync: Bool = false) throws {
        self.fsync = fsync
        directory = try TemporaryDirectory(prefix: "drawtogether-pg")
        guard
            let version = try FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")
                .compactMap(Int.init).max()
        else {
            throw PostgresClusterError(step: "finding PostgreSQL", output: "nothing in /usr/lib/postgresql")
        }
        binaries = "/usr/lib/postgresql/\(version)/bin"
        socketDirectory = directory.path + "/pg"
        dataDirectory = socketDirectory + "/data"
        try FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: false)
        if getuid() == 0 {
            // The server user must reach its directory: open the temp dir, hand it the cluster's own.
            chmod(directory.path, 0o755)
            try run("/usr/bin/chown", ["postgres", socketDirectory], step: "chown")
        }
        try runServerProgram("initdb", ["-D", dataDirectory, "-A", "trust", "-U", "relay", "-E", "UTF8"])
        let rules = "local all relay trust\nlocal all all scram-sha-256\n"
        try runServerProgram("sh", ["-c", "printf '\(rules)' > '\(dataDirectory)/pg_hba.conf'"])
        try start()
    }

    /// Whether a PostgreSQL server's programs are installed (`initdb` under /usr/lib/postgresql).
    public static var serverIsInstalled: Bool {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        return versions.contains {
            FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb")
        }
    }

    /// A cluster of its own, for a test that stops and starts it (the shared one serves the
    /// other tests meanwhile). Stopped when released. The tests run it with `fsync=off` (they
    /// kill relays, never the machine); the capacity bench asks for `fsync` on.
    public static func makePrivate(fsync: Bool = false) throws -> PostgresCluster {
        try PostgresCluster(fsync: fsync)
    }

    /// Starts the server (again) and waits until it accepts connections.
    public func start() throws {
        try runServerProgram(
            "pg_ctl",
            [
                "-D", dataDirectory, "-l", socketDirectory + "/log", "-w", "-t", "60", "start", "-o",
                "-k \(socketDirectory) -c listen_addresses='' -c fsync=\(fsync ? "on" : "off") -c max_connections=200",
            ])
    }

    /// Stops the server as a crash would (`-m immediate`: every connection is cut at once).
    public func crash() throws {
        try runServerProgram("pg_ctl", ["-D", dataDirectory, "-m", "immediate", "-w", "stop"])
    }

    deinit { stop() }

    /// A URL reaching `database` as `user` (with `password`, when given) through the socket.
    public func url(database: String, user: String = "relay", password: String? = nil) -> String {
        let credentials = password.map { "\(user):\($0)" } ?? user
        return "postgresql://\(credentials)@/\(database)?host=\(socketDirectory)"
    }

    /// Creates a fresh database and returns its name.
    public func createDatabase() throws -> String {
        let name = counters.withLock {
            $0.databases += 1
            return "test\(getpid())_\($0.databases)"
        }
        try run(
            binaries + "/createdb", ["-h", socketDirectory, "-U", "relay", name], step: "createdb \(name)")
        return name
    }

    /// Runs SQL as the superuser (to set up roles and such).
    public func psql(_ sql: String, database: String = "postgres") throws {
        try run(
            "/usr/bin/psql", [url(database: database), "-v", "ON_ERROR_STOP=1", "-qc", sql], step: "psql")
    }

    /// Stops the server at once (the tests kill relays, never need the database's shutdown).
    public func stop() {
        let alreadyStopped = counters.withLock { counters in
            defer { counters.stopped = true }
            return counters.stopped
        }
        guard !alreadyStopped else { return }
        try? runServerProgram("pg_ctl", ["-D", dataDirectory, "-m", "immediate", "-w", "stop"])
    }

    private func runServerProgram(_ program: String, _ arguments: [String]) throws {
        let path = program == "sh" ? "/bin/sh" : binaries + "/" + program
        if getuid() == 0 {
            try run("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments, step: program)
        } else {
            try run(path, arguments, step: program)
        }
    }

    /// Spawned as every child is (`SpawnedProcess`): the server outlives `pg_ctl` and would
    /// otherwise keep every descriptor it inherited, so a pipe of this or any concurrent test
    /// would never reach end-of-file, and it would inherit the test runner's blocked signals
    /// (SIGCHLD among them). Run from `/`, which the server user can enter.
    private func run(_ executable: String, _ arguments: [String], step: String) throws {
        let result = try runProcess(executable, arguments, currentDirectory: "/")
        guard result.status == 0 else {
            throw PostgresClusterError(step: step, output: result.standardOutput + result.standardError)
        }
    }
}

/// A step of setting up the cluster failed, with what the program printed.
public struct PostgresClusterError: Error, CustomStringConvertible {
    public var step: String
    public var output: String

    public var description: String { "PostgreSQL test cluster: \(step) failed: \(output)" }
}

import FoundationEssentials
import Glibc
import TestSupport

/// A real `drawtogether serve` in a child process: the relay the capacity figures measure. Its
/// CPU time and resident memory are read from `/proc/PID`, so they are the relay's alone.
final class RelayProcess {
    /// How a relay is started. `extraArguments` is the seam for other stores: a run of two
    /// relays on one PostgreSQL passes `["--postgres", URL]` to each.
    struct Options {
        var token: String
        var store: String
        var extraArguments: [String] = []
    }

    let process: SpawnedProcess
    let port: UInt16
    private let log: String

    /// `drawtogether` beside this benchmark's executable (both are built by `swift build`).
    static var binary: String {
        let bench =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bench).deletingLastPathComponent().appendingPathComponent("drawtogether")
            .path
    }

    static var isBuilt: Bool {
        FileManager.default.isExecutableFile(atPath: binary)
    }

    init(_ options: Options, log: String) throws {
        self.log = log
        let binary = Self.binary
        guard Self.isBuilt else {
            throw BenchError.setup(
                "no relay binary at \(binary): build it too (swift build -c release --product drawtogether)")
        }
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("DRAWTOGETHER_") }
        environment["DRAWTOGETHER_TOKEN"] = options.token
        process = try SpawnedProcess(
            binary,
            [
                "serve", "--listen", "127.0.0.1:0", "--store", options.store, "--database-id",
                RelayLoad.databaseID,
            ] + options.extraArguments,
            environment: environment, standardOutput: .pipe, standardError: .file(log))
        // `listening on 127.0.0.1:PORT` is its first line on standard output.
        var line: [UInt8] = []
        SpawnedProcess.read([process.standardOutput ?? -1]) { _, chunk in
            line += chunk
            return !chunk.contains(UInt8(ascii: "\n"))
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("listening on "), let colon = text.lastIndex(of: ":"),
            let port = UInt16(text[text.index(after: colon)...].prefix { $0.isNumber })
        else {
            process.send(SIGTERM)
            throw BenchError.setup("the relay did not start (see \(log)): '\(text)'")
        }
        self.port = port
    }

    deinit {
        stop()
    }

    /// SIGTERM, and SIGKILL if it has not gone within 10 s.
    func stop() {
        guard process.isRunning else { return }
        process.send(SIGTERM)
        let deadline = BenchClock.now() + 10_000_000_000
        while process.isRunning && BenchClock.now() < deadline { usleep(10_000) }
        process.send(SIGKILL)
        process.wait()
    }

    /// The deltas and transactions of the relay's group commit, from the line it logs when it
    /// stops (`group commit: D deltas in T transactions`); nil before it stopped cleanly.
    func commitStatistics() -> (deltas: Int, transactions: Int)? {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8),
            let line = text.split(separator: "\n").last(where: { $0.contains("group commit: ") }),
            let tail = line.split(separator: "group commit: ").last
        else { return nil }
        let words = tail.split(separator: " ")
        guard words.count >= 4, let deltas = Int(words[0]), let transactions = Int(words[3]) else {
            return nil
        }
        return (deltas, transactions)
    }

    /// User plus system CPU the relay has used, in microseconds (`/proc/PID/stat`).
    func cpuMicroseconds() -> Double? {
        guard
            let text = try? String(
                contentsOfFile: "/proc/\(process.pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After the command name in parentheses: state is field 3, utime 14 and stime 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            return nil
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK))) * 1e6
    }

    /// The relay's resident memory in KiB (`VmRSS` of `/proc/PID/status`).
    func residentKiB() -> Double? {
        guard
            let text = try? String(
                contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Double(String(line.filter(\.isNumber)))
    }
}

import Foundation
import Glibc
import TestSupport
import Testing

/// `drawtogether serve` at a low open-file limit (set in the child: `ulimit -n 20`, soft and hard,
/// so raising the soft limit at start cannot lift it), flooded with idle connections: it stops
/// accepting instead of spinning on the listener, says so once, and lets a real client in as
/// soon as descriptors are free again.
@Suite struct ServeDescriptorLimitTests {
    private let token = "descriptor-limit-token-0123456789"

    /// User plus system CPU time of a running process, from /proc/PID/stat.
    private func cpuTime(of pid: Int32) -> Duration? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name: state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int64(fields[11]), let system = Int64(fields[12]) else {
            return nil
        }
        let ticks = sysconf(Int32(_SC_CLK_TCK))
        return .milliseconds((user + system) * 1000 / Int64(max(ticks, 1)))
    }

    private func connect(port: UInt16) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            Glibc.close(descriptor)
            return nil
        }
        return descriptor
    }

    @Test func atTheOpenFileLimitTheRelayWaitsWithoutSpinningAndLetsAClientInOnceOneIsFree() throws {
        let home = try TemporaryDirectory(prefix: "serve-fd-limit")
        let environment = SyncTestSupport.environment(home: home, extra: ["DRAWTOGETHER_TOKEN": token])
        let relay = try ChildProcess(
            "/bin/sh",
            [
                "-c", "ulimit -n 20 && exec \"$0\" serve --listen 127.0.0.1:0 --store \"$1\"",
                SyncTestSupport.binary, home.path + "/relay",
            ],
            environment: environment)
        defer { relay.send(SIGKILL) }
        #expect(ChildProcess.waitFor { SyncTestSupport.listeningPort(in: relay.standardOutput) != nil })
        let port = try #require(
            SyncTestSupport.listeningPort(in: relay.standardOutput), "\(relay.standardError)")

        // Forty strangers connect and say nothing: the relay runs out of descriptors.
        var idle = (0..<40).compactMap { _ in connect(port: port) }
        defer { idle.forEach { _ = Glibc.close($0) } }
        #expect(idle.count == 40)
        #expect(
            ChildProcess.waitFor { relay.standardError.contains("stopped accepting") },
            "\(relay.standardError)")

        // Two seconds at the limit with connections queued: a spinning accept loop burns both
        // seconds on a core; the paused listener only wakes for its 1 s retry.
        let before = try #require(cpuTime(of: relay.pid))
        let windowStart = ContinuousClock.now
        while ContinuousClock.now - windowStart < .seconds(2) { usleep(100_000) }
        let used = try #require(cpuTime(of: relay.pid)) - before
        #expect(used < .milliseconds(400), "the relay used \(used) of CPU in 2 s at the descriptor limit")
        print("descriptor limit: relay CPU in 2 s with 40 queued connections: \(used)")
        // Said once for the whole wait, not once per retry.
        let pauses = relay.standardError.components(separatedBy: "stopped accepting").count - 1
        #expect(pauses == 1, "\(relay.standardError)")

        // The strangers leave; a real client syncs at once.
        idle.forEach { _ = Glibc.close($0) }
        idle = []
        let started = ContinuousClock.now
        let client = try runProcess(
            SyncTestSupport.binary,
            [
                "sync", "--once", "--no-discovery", "--server", "tcp://127.0.0.1:\(port)", "--store",
                home.path + "/client",
            ],
            environment: environment)
        let took = ContinuousClock.now - started
        #expect(client.status == 0, "\(client.standardError)\n--- relay:\n\(relay.standardError)")
        print("descriptor limit: a client's sync --once after the flood took \(took)")
        relay.send(SIGTERM)
        #expect(relay.waitForExit() == 0)
    }
}

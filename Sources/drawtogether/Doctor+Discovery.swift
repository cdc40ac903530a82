import FoundationEssentials
import Glibc
import ReplicaSync

extension Doctor {
    /// The rendezvous directory of local discovery and the instances listening there. A socket
    /// file counts as an instance only while a process listens on it (/proc/net/unix), so the
    /// file a killed instance left behind is told apart without connecting to anybody.
    static func discovery(_ configuration: Configuration) -> [DoctorFinding] {
        guard configuration.discovery else {
            return [.ok(.discovery, "off (--no-discovery): instances on this machine do not find each other")]
        }
        let directory: String
        do {
            directory = try SyncNode.rendezvousDirectory(databaseID: configuration.databaseID)
        } catch {
            return [
                .problem(
                    .discovery,
                    "\(UserMessage.message(for: error)); instances on this machine cannot find each other (fix the directory, or set XDG_RUNTIME_DIR)"
                )
            ]
        }
        let sockets = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".sock") }.sorted()
        let listening = listeningUnixSockets()
        let live = sockets.filter { listening.contains(directory + "/" + $0) }
        let peers = live.map { String($0.dropLast(5).suffix(16).prefix(6)) }
        var findings: [DoctorFinding] = []
        if live.isEmpty {
            findings.append(
                .ok(
                    .discovery,
                    "\(directory): no instance of database '\(configuration.databaseID)' is running here"))
        } else {
            let count = live.count == 1 ? "1 instance" : "\(live.count) instances"
            findings.append(
                .ok(.discovery, "\(directory): \(count) listening (peer \(peers.joined(separator: ", ")))"))
        }
        let stale = sockets.count - live.count
        if stale > 0 {
            findings.append(
                .note(
                    .discovery,
                    "\(stale) socket file\(stale == 1 ? "" : "s") in \(directory) left by instances that were killed; harmless (they are skipped), or remove them while no instance runs"
                ))
        }
        return findings
    }

    /// The paths of the Unix sockets some process listens on (`/proc/net/unix`, state 01 with
    /// the accepting flag 00010000).
    private static func listeningUnixSockets() -> Set<String> {
        guard let table = wholeProcFile("/proc/net/unix") else { return [] }
        var paths: Set<String> = []
        for line in table.split(separator: "\n").dropFirst() {
            // Num RefCount Protocol Flags Type St Inode Path
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 8, fields[3] == "00010000" else { continue }
            paths.insert(fields[7...].joined(separator: " "))
        }
        return paths
    }

    /// A /proc file read to its end: Foundation reads one (whose size is 0) only in part, about
    /// 4 KiB, so a busy machine's socket table (and lock table) lost what was listed after that.
    static func wholeProcFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 {
                bytes += buffer.prefix(count)
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return count == 0 ? String(decoding: bytes, as: UTF8.self) : nil
            }
        }
    }
}

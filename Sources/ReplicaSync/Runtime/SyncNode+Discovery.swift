import EventRuntime
import Glibc
import MonotonicTime

/// Local discovery: every peer of a database listens on a socket in a per-user rendezvous
/// directory and dials the others it finds there, rescanning periodically.
extension SyncNode {
    /// `$XDG_RUNTIME_DIR/drawtogether/<database-id>`, else `<tmp>/drawtogether-<uid>/<database-id>`;
    /// created 0700 so only this user can connect.
    public static func rendezvousDirectory(
        databaseID: String, environment: [String: String] = processEnvironment()
    ) throws -> String {
        let safeID = String(databaseID.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
        let base: String
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            base = runtime + "/drawtogether"
        } else {
            base = temporaryDirectory() + "/drawtogether-\(getuid())"
        }
        let directory = base + "/" + safeID
        for path in [base, directory] {
            if mkdir(path, 0o700) != 0, errno != EEXIST { throw SocketError.system("creating \(path)") }
        }
        var info = stat()
        guard stat(base, &info) == 0, info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw SocketError(
                operation: "using \(base) (it must belong to this user, mode 0700)", code: EPERM)
        }
        // The database's own folder too: one made looser (by hand, or by an older version) is
        // tightened, since its sockets let anyone who can reach them sync without a token.
        guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(),
            info.st_mode & 0o077 == 0 || chmod(directory, 0o700) == 0
        else {
            throw SocketError(
                operation: "using \(directory) (it must be a directory of this user, mode 0700)", code: EPERM)
        }
        return directory
    }

    /// Listens on `<directory>/<peer id>.sock` and dials every other socket there now and every
    /// `rescanInterval`. Only the peer with the higher id dials, so each pair has one connection.
    public func startLocalDiscovery(in directory: String, rescanInterval: Duration = .seconds(1)) throws {
        let own = directory + "/" + Self.socketName(for: configuration.peerID)
        try listen(on: .unix(path: own))
        rescan(directory, every: rescanInterval)
    }

    private func rescan(_ directory: String, every interval: Duration) {
        let names = Self.entries(of: directory)
        for name in names.sorted() where name.hasSuffix(".sock") {
            guard let peer = UInt64(name.dropLast(5), radix: 16), peer < configuration.peerID else {
                continue
            }
            connect(to: .unix(path: directory + "/" + name), discovered: true)
        }
        loop.schedule(at: loop.now + interval) { [weak self] in
            guard let self, !self.isShutDown else { return }
            rescan(directory, every: interval)
        }
    }

    /// The names in a directory (none when it cannot be read).
    private static func entries(of directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// `$TMPDIR` without its trailing slash, else `/tmp` (what Foundation's temporary directory is).
    private static func temporaryDirectory() -> String {
        var path = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path.isEmpty ? "/tmp" : path
    }

    /// This process's environment, read from `environ`.
    @usableFromInline static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            cursor += 1
        }
        return environment
    }

    static func socketName(for peerID: UInt64) -> String {
        let hex = String(peerID, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + ".sock"
    }
}

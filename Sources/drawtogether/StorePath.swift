import Glibc

/// The file-system steps on the way to a replica, done with the system calls themselves so a
/// failure names the exact path and `errno` (Foundation reports `NSCocoaErrorDomain Code=513`).
enum StorePath {
    /// What is at a path.
    enum Status: Equatable {
        case directory
        case other
        case missing
        /// `stat` failed for another reason than "no such file" (permission, a file in the way).
        case unreachable(errno: Int32)
    }

    /// Whether `file` is a database nothing was written to yet: 0 bytes, and no write-ahead log
    /// with anything in it. A creation killed before its first commit leaves one; it is a new
    /// replica to readers and writers alike.
    static func isUnwrittenDatabase(_ file: String) -> Bool {
        var info = stat()
        guard stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size == 0 else {
            return false
        }
        return stat(file + "-wal", &info) != 0 || info.st_size == 0
    }

    static func status(_ path: String) -> Status {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            return code == ENOENT ? .missing : .unreachable(errno: code)
        }
        return info.st_mode & S_IFMT == S_IFDIR ? .directory : .other
    }

    /// `mkdir -p`: creates the directory and any missing parents (mode 0700: a store is private). A
    /// failure names the folder to fix: the one in the way, or the parent that denied access.
    static func createDirectories(_ path: String) throws(StoreAccessError) {
        var parent = path.hasPrefix("/") ? "/" : "."
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            defer { parent = prefix }
            switch status(prefix) {
            case .directory:
                guard access(prefix, X_OK) == 0 else {
                    throw .cannotCreate(directory: path, blocker: prefix, problem: .system(errno: errno))
                }
            case .other:
                throw .cannotCreate(directory: path, blocker: prefix, problem: .notADirectory)
            case .unreachable(let code):
                throw .cannotCreate(directory: path, blocker: prefix, problem: .system(errno: code))
            case .missing:
                guard mkdir(prefix, 0o700) == 0 else {
                    let code = errno
                    // Another process may have made it in between.
                    if code == EEXIST, status(prefix) == .directory { continue }
                    let blocker = code == EACCES || code == EPERM || code == EROFS ? parent : prefix
                    throw .cannotCreate(directory: path, blocker: blocker, problem: .system(errno: code))
                }
            }
        }
    }

    /// Why `file` cannot be looked at, or nil when every folder on the way to it can be searched
    /// (the file may still be missing: that is no problem). The walk starts at `/`, so a store
    /// inside a folder without permission names that folder.
    static func problem(reaching file: String) -> StoreAccessError? {
        let components = file.split(separator: "/")
        var path = file.hasPrefix("/") ? "" : "."
        for (index, component) in components.enumerated() {
            path += "/" + component
            let isLast = index == components.count - 1
            switch status(path) {
            case .missing:
                return nil
            case .directory:
                if !isLast, access(path, X_OK) != 0 {
                    return .cannotRead(path: path, problem: .system(errno: errno))
                }
            case .other:
                if !isLast { return .cannotRead(path: path, problem: .notADirectory) }
            case .unreachable(let code):
                return .cannotRead(path: path, problem: .system(errno: code))
            }
        }
        return nil
    }
}

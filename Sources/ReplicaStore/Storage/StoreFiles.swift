import Glibc
import ReplicaCore

/// The files of a store directory and their modes: the directory 0700, the database, its WAL
/// and shared-memory files and the lock file 0600, whatever the umask, so another local user
/// reads no drawing. A store made with looser modes (by an older version, or copied) is
/// tightened when it is opened.
enum StoreFiles {
    static let directoryMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600

    /// Takes group and other permissions away from the directory and the store's files in it;
    /// returns the paths it changed. A file of another owner, or on a read-only file system, is
    /// left as it is (`chmod` fails; nothing of this store's data is at stake in that).
    static func tighten(directory: String) -> [String] {
        let files = [
            ReplicaDatabase.fileName, ReplicaDatabase.fileName + "-wal", ReplicaDatabase.fileName + "-shm",
            StoreLock.fileName,
        ]
        var changed: [String] = []
        var info = stat()
        if stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_mode & 0o077 != 0,
            chmod(directory, info.st_mode & 0o700 | directoryMode) == 0
        {
            changed.append(directory)
        }
        for name in files {
            let path = directory + "/" + name
            // lstat: a symbolic link planted in the directory is not followed to someone's file.
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o077 != 0 else {
                continue
            }
            if chmod(path, info.st_mode & 0o700 | fileMode) == 0 { changed.append(path) }
        }
        return changed
    }

    /// An `errno` in words, lower case.
    static func reason(errno code: Int32) -> String {
        switch code {
        case EACCES, EPERM: return "permission denied"
        case EROFS: return "the file system is read-only"
        case ENOSPC, EDQUOT: return "no space left on the device"
        case EFBIG: return "the file size limit was reached"
        default:
            let text = String(cString: strerror(code))
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }
}

import Glibc
import ReplicaCore

/// The writer's claim on a store directory: an exclusive `flock` on `replica.lock`, which the
/// kernel drops when the process dies, so a killed instance never leaves a stale lock. The file
/// holds the owner's pid so a second writer can say who has it.
final class StoreLock {
    static let fileName = "replica.lock"
    private let descriptor: Int32

    init(directory: String) throws {
        let path = directory + "/" + Self.fileName
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, StoreFiles.fileMode)
        guard descriptor >= 0 else {
            throw ReplicaError.cannotOpenStore(
                directory: directory,
                reason: "cannot open \(path): \(Self.errorText(errno))")
        }
        guard Self.lock(descriptor) else {
            let failure = errno
            let holder = Self.readPID(descriptor)
            close(descriptor)
            if failure == EWOULDBLOCK {
                throw ReplicaError.storeInUse(directory: directory, holderPID: holder)
            }
            throw ReplicaError.cannotOpenStore(
                directory: directory, reason: "cannot lock \(path): \(Self.errorText(failure))")
        }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.descriptor = descriptor
    }

    deinit {
        // Clearing the pid first means a reader never sees a pid of a writer that has gone.
        _ = ftruncate(descriptor, 0)
        close(descriptor)
    }

    /// Takes the lock without blocking on a live writer. A lock whose file names no writer, or
    /// this very process, was just released; it can still be held for a moment by a child that
    /// was forked while it was open and has not reached `exec` yet (its copy of the descriptor is
    /// closed there), so that case is retried for up to about 100 ms.
    private static func lock(_ descriptor: Int32) -> Bool {
        for _ in 0..<50 {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
            guard errno == EWOULDBLOCK else { return false }
            let holder = readPID(descriptor)
            guard holder == nil || holder == getpid() else { return false }
            usleep(2_000)
        }
        errno = EWOULDBLOCK
        return false
    }

    private static func readPID(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 24)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self)
        return Int32(text.filter { $0.isNumber })
    }

    private static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

import Glibc

/// Where a command's result goes, with every write checked: a full disk, a file size limit or a
/// reader that closed the pipe is an error naming what failed, never a crash and never a
/// silently short file.
///
/// `-o PATH` is replaced atomically (a temporary file beside it, renamed over it) only when PATH
/// is a regular file or does not exist yet; a symbolic link is followed to its target first, and
/// a FIFO, a device or `-` (standard output) is written directly, since renaming over those
/// would put a regular file where they were.
enum CommandOutput {
    /// Why the output could not be written.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case standardOutput(errno: Int32)
        /// `step` is what was being done to `path` ("creating a temporary file beside it").
        case file(path: String, step: String, errno: Int32)

        var description: String {
            switch self {
            case .standardOutput(let code):
                return "cannot write to standard output: \(Self.reason(code)); the output is incomplete"
            case .file:
                return what + "; choose another file with -o, or leave -o out to print it"
            }
        }

        /// What failed, without the command line's advice.
        var what: String {
            switch self {
            case .standardOutput(let code):
                return "cannot write to standard output: \(Self.reason(code)); the output is incomplete"
            case .file(let path, let step, let code):
                return "cannot write \(path) (\(step)): \(Self.reason(code))"
            }
        }

        private static func reason(_ code: Int32) -> String {
            switch code {
            case EPIPE: return "the reader closed the pipe"
            case EFBIG: return "the file size limit was reached"
            default: return FileSystemFailure.reason(errno: code)
            }
        }
    }

    /// Writes `text` to standard output, all of it.
    static func printStandardOutput(_ text: String) throws(Failure) {
        if let code = writeAll(Array(text.utf8), to: STDOUT_FILENO) { throw .standardOutput(errno: code) }
    }

    /// Writes `text` to `path` (`-` is standard output).
    static func write(_ text: String, toFile path: String) throws(Failure) {
        if path == "-" { return try printStandardOutput(text) }
        let target = followingSymbolicLinks(path)
        var info = stat()
        if stat(target, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            guard info.st_mode & S_IFMT != S_IFDIR else {
                throw .file(path: path, step: "opening it", errno: EISDIR)
            }
            try writeDirectly(Array(text.utf8), to: target, named: path)
        } else {
            try replaceAtomically(Array(text.utf8), at: target, named: path)
        }
    }

    /// The path a chain of symbolic links ends at (the last link's target may not exist yet).
    static func followingSymbolicLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { return current }
            let link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : directoryName(of: current) + "/" + link
        }
        return current
    }

    /// A FIFO or a device: opened and written in place.
    private static func writeDirectly(_ bytes: [UInt8], to target: String, named path: String) throws(Failure)
    {
        let descriptor = open(target, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw .file(path: path, step: "opening it", errno: errno) }
        if let code = writeAll(bytes, to: descriptor) {
            close(descriptor)
            throw .file(path: path, step: "writing", errno: code)
        }
        guard close(descriptor) == 0 else { throw .file(path: path, step: "closing it", errno: errno) }
    }

    /// A regular file or a new one: a temporary file beside it, flushed to the disk, renamed over
    /// it, so a reader sees the old file or the whole new one, and a failure leaves the old one.
    private static func replaceAtomically(_ bytes: [UInt8], at target: String, named path: String)
        throws(Failure)
    {
        var existing = stat()
        let mode: mode_t
        if stat(target, &existing) == 0 {
            mode = existing.st_mode & 0o7777
        } else {
            let mask = umask(0)
            umask(mask)
            mode = 0o666 & ~mask
        }
        let directory = directoryName(of: target)
        let name = target.split(separator: "/").last.map(String.init) ?? "output"
        var temporary = ""
        var descriptor: Int32 = -1
        for _ in 0..<16 where descriptor < 0 {
            temporary = directory + "/." + name + "." + String(UInt32.random(in: 0...UInt32.max), radix: 36)
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor < 0, errno != EEXIST { break }
        }
        guard descriptor >= 0 else {
            throw .file(path: path, step: "creating a temporary file beside it", errno: errno)
        }
        func fail(_ step: String, _ code: Int32) -> Failure {
            close(descriptor)
            unlink(temporary)
            return .file(path: path, step: step, errno: code)
        }
        guard fchmod(descriptor, mode) == 0 else { throw fail("setting its mode", errno) }
        if let code = writeAll(bytes, to: descriptor) { throw fail("writing", code) }
        guard fsync(descriptor) == 0 else { throw fail("flushing it to the disk", errno) }
        guard close(descriptor) == 0 else {
            let code = errno
            unlink(temporary)
            throw .file(path: path, step: "closing it", errno: code)
        }
        guard rename(temporary, target) == 0 else {
            let code = errno
            unlink(temporary)
            throw .file(path: path, step: "renaming the temporary file over it", errno: code)
        }
    }

    /// Writes every byte, retrying short writes and interruptions; the `errno` of a failure.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    /// The directory part of `path` (`.` when it names none, `/` for a file at the root).
    static func directoryName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

import Glibc
import StrokeKit

/// The cache on disk: one file per drawing in a `bounds` directory inside the replica's store
/// directory, named by the digest of the drawing id (any id makes a safe name; the id itself is
/// inside and checked). Only the instance holding the store's lock writes it, through a
/// temporary file renamed over the old one, so a reader sees a whole file or the one before.
extension DrawingBoundsCache {
    /// The directory name inside the store directory.
    public static let directoryName = "bounds"

    /// Where the cache of `drawingID` lives in the store `directory`.
    public static func path(inStore directory: String, drawingID: String) -> String {
        "\(directory)/\(directoryName)/\(StrokeFingerprint(ofUTF8: drawingID).hex)"
    }

    /// The cache of `drawingID` in the store `directory`; nil when there is none yet.
    public static func read(inStore directory: String, drawingID: String) throws(DrawingBoundsCacheError)
        -> DrawingBoundsCache?
    {
        try bytes(inStore: directory, drawingID: drawingID).map { bytes throws(DrawingBoundsCacheError) in
            try DrawingBoundsCache(decoding: bytes, drawingID: drawingID)
        }
    }

    /// The cache of `drawingID` in the store `directory` as the table a staged open reads; nil
    /// when there is none yet.
    static func readTable(inStore directory: String, drawingID: String) throws(DrawingBoundsCacheError)
        -> BoundsCacheTable?
    {
        try bytes(inStore: directory, drawingID: drawingID).map { bytes throws(DrawingBoundsCacheError) in
            try table(decoding: bytes, drawingID: drawingID)
        }
    }

    /// The bytes of the cache file of `drawingID`; nil when there is none.
    private static func bytes(inStore directory: String, drawingID: String) throws(DrawingBoundsCacheError)
        -> [UInt8]?
    {
        let path = path(inStore: directory, drawingID: drawingID)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .unreadable(path: path, reason: reason(errno))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(path: path, reason: reason(errno)) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                Glibc.read(descriptor, $0.baseAddress! + done, $0.count - done)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw count == 0 ? .truncated : .unreadable(path: path, reason: reason(errno))
            }
            done += count
        }
        return bytes
    }

    /// Writes the cache into the store `directory` (readable by this user only).
    public func write(inStore directory: String) throws(DrawingBoundsCacheError) {
        let folder = "\(directory)/\(Self.directoryName)"
        let path = Self.path(inStore: directory, drawingID: drawingID)
        if mkdir(folder, 0o700) != 0, errno != EEXIST {
            throw .unwritable(path: folder, reason: Self.reason(errno))
        }
        let temporary = "\(path).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .unwritable(path: temporary, reason: Self.reason(errno)) }
        let bytes = encoded()
        var done = 0
        var failure: Int32?
        while done < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.write(descriptor, $0.baseAddress! + done, $0.count - done)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                failure = count == 0 ? EIO : errno
                break
            }
            done += count
        }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw .unwritable(path: path, reason: Self.reason(failure))
        }
    }

    private static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}

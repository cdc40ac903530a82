import Foundation
import Glibc

/// Turns a failed file operation into the few words a person can act on ("permission denied",
/// "not a directory"), instead of Foundation's `Error Domain=NSCocoaErrorDomain Code=513 ...`.
/// Callers put the path and the advice around it.
enum FileSystemFailure {
    /// The reason of a Foundation or POSIX file error; any other error's own description.
    static func reason(_ error: any Error) -> String {
        if let code = posixCode(of: error) { return reason(errno: code) }
        let nsError = error as NSError
        guard nsError.domain == NSCocoaErrorDomain else { return "\(error)" }
        if let code = cocoaEquivalents[nsError.code] { return reason(errno: code) }
        return nsError.localizedDescription
    }

    /// One line for a Foundation file error that reached the top without a message of its own:
    /// the path it names, the reason and what to check; nil for every other error.
    static func message(_ error: any Error) -> String? {
        let nsError = error as NSError
        guard nsError.domain == NSCocoaErrorDomain || nsError.domain == NSPOSIXErrorDomain else { return nil }
        let path =
            nsError.userInfo[NSFilePathErrorKey] as? String ?? (nsError.userInfo[NSURLErrorKey] as? URL)?.path
        guard let path else { return "a file operation failed: \(reason(error))" }
        return "cannot use \(path): \(reason(error)); check that path and its permissions"
    }

    /// The reason for an `errno` value, in lower case.
    static func reason(errno code: Int32) -> String {
        switch code {
        case EACCES, EPERM: return "permission denied"
        case ENOENT: return "no such file or directory"
        case ENOTDIR: return "a part of the path is a file, not a directory"
        case EISDIR: return "it is a directory"
        case EROFS: return "the file system is read-only"
        case ENOSPC, EDQUOT: return "no space left on the device"
        case ELOOP: return "too many symbolic links (a loop?)"
        case EEXIST: return "a file is in the way"
        default:
            let text = String(cString: strerror(code))
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }

    /// The POSIX error behind an error, when Foundation kept one (directly or as the underlying
    /// error).
    static func posixCode(of error: any Error) -> Int32? {
        if let posix = error as? POSIXError { return posix.code.rawValue }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: nsError.code) }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError {
            return posixCode(of: underlying)
        }
        return nil
    }

    /// Foundation's file error codes and the POSIX error each stands for, for errors that carry
    /// no underlying one.
    private static let cocoaEquivalents: [Int: Int32] = [
        CocoaError.Code.fileNoSuchFile.rawValue: ENOENT,
        CocoaError.Code.fileReadNoSuchFile.rawValue: ENOENT,
        CocoaError.Code.fileReadNoPermission.rawValue: EACCES,
        CocoaError.Code.fileWriteNoPermission.rawValue: EACCES,
        CocoaError.Code.fileWriteOutOfSpace.rawValue: ENOSPC,
        CocoaError.Code.fileWriteVolumeReadOnly.rawValue: EROFS,
        CocoaError.Code.fileWriteFileExists.rawValue: EEXIST,
    ]
}

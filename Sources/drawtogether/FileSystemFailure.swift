import FoundationEssentials
import Glibc

/// Turns a failed file operation into the few words a person can act on ("permission denied",
/// "not a directory"), instead of Foundation's `Error Domain=NSCocoaErrorDomain Code=513 ...`.
/// Callers put the path and the advice around it.
enum FileSystemFailure {
    /// The reason of a Foundation or POSIX file error; any other error's own description.
    static func reason(_ error: any Error) -> String {
        if let code = posixCode(of: error) { return reason(errno: code) }
        guard let cocoaError = error as? CocoaError else { return "\(error)" }
        if let code = cocoaEquivalents[cocoaError.code.rawValue] { return reason(errno: code) }
        return cocoaReasons[cocoaError.code.rawValue]
            ?? "a file error (Foundation's code \(cocoaError.code.rawValue))"
    }

    /// One line for a Foundation file error that reached the top without a message of its own:
    /// the path it names, the reason and what to check; nil for every other error.
    static func message(_ error: any Error) -> String? {
        guard error is CocoaError || error is POSIXError else { return nil }
        let cocoaError = error as? CocoaError
        guard let path = cocoaError?.filePath ?? cocoaError?.url?.path else {
            return "a file operation failed: \(reason(error))"
        }
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
        guard let underlying = (error as? CocoaError)?.underlying else { return nil }
        return posixCode(of: underlying)
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

    /// Words for Foundation's file errors that no POSIX error stands for.
    private static let cocoaReasons: [Int: String] = [
        CocoaError.Code.fileReadCorruptFile.rawValue: "the file is damaged",
        CocoaError.Code.fileReadInapplicableStringEncoding.rawValue: "the file is not UTF-8 text",
        CocoaError.Code.fileReadUnknownStringEncoding.rawValue: "the file is not UTF-8 text",
        CocoaError.Code.fileReadTooLarge.rawValue: "the file is too large to read",
        CocoaError.Code.fileReadInvalidFileName.rawValue: "the file name is not valid",
        CocoaError.Code.fileWriteInvalidFileName.rawValue: "the file name is not valid",
        CocoaError.Code.fileWriteInapplicableStringEncoding.rawValue: "the text cannot be written as UTF-8",
        CocoaError.Code.fileLocking.rawValue: "the file is locked",
        CocoaError.Code.fileReadUnknown.rawValue: "the file could not be read",
        CocoaError.Code.fileWriteUnknown.rawValue: "the file could not be written",
    ]
}

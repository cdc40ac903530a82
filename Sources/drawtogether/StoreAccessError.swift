import Glibc

/// The store directory cannot be created or read: a file in the way, missing permissions, a
/// read-only file system. One line naming the path and what to do.
enum StoreAccessError: Error, Equatable, CustomStringConvertible {
    /// What went wrong at a path.
    enum Problem: Equatable {
        /// A file where a directory should be.
        case notADirectory
        /// A failed system call's `errno`.
        case system(errno: Int32)
    }

    /// Creating `directory` failed at `blocker` (the directory itself or a parent of it).
    case cannotCreate(directory: String, blocker: String, problem: Problem)
    case cannotRead(path: String, problem: Problem)

    var description: String {
        switch self {
        case .cannotCreate(let directory, let blocker, let problem):
            let at = blocker == directory ? "" : " (at \(blocker))"
            return
                "cannot create the replica directory \(directory)\(at): \(Self.explain(problem, at: blocker))"
        case .cannotRead(let path, let problem):
            return "cannot read the store at \(path): \(Self.explain(problem, at: path))"
        }
    }

    /// The reason, then what to do about it.
    private static func explain(_ problem: Problem, at path: String) -> String {
        let elsewhere = "choose another store with --store or DRAWTOGETHER_STORE"
        switch problem {
        case .notADirectory:
            return "it is a file, not a directory; move the file away, or \(elsewhere)"
        case .system(let code) where code == EACCES || code == EPERM:
            return "permission denied; give yourself access (chmod u+rwx \(path)), or \(elsewhere)"
        case .system(let code):
            return "\(FileSystemFailure.reason(errno: code)); \(elsewhere)"
        }
    }
}

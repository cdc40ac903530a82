import FoundationEssentials
import Glibc

/// A temporary directory for a section's replicas, removed when the section is done.
final class TemporaryStores {
    let root: String

    init(_ label: String) throws {
        var template = Array(
            "\(FileManager.default.temporaryDirectory.path)/drawtogether-bench-\(label).XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw BenchError.setup("cannot make a temporary directory: \(String(cString: strerror(errno)))")
        }
        root = String(cString: made)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// A fresh subdirectory path (not created: the replica creates it).
    func path(_ name: String) -> String { root + "/" + name }

    /// Bytes of every file under `directory` (the SQLite database, its WAL and lock files).
    static func bytes(under directory: String) -> Int {
        let manager = FileManager.default
        guard let names = try? manager.subpathsOfDirectory(atPath: directory) else { return 0 }
        return names.reduce(0) { total, name in total + size(ofFile: directory + "/" + name) }
    }

    /// The size of the file at `path` from stat(2); 0 where there is none.
    static func size(ofFile path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}

/// Why a benchmark could not run (or found a wrong result, which makes its figures meaningless).
enum BenchError: Error, CustomStringConvertible {
    case setup(String)
    case wrongResult(String)

    var description: String {
        switch self {
        case .setup(let reason): "setup failed: \(reason)"
        case .wrongResult(let reason): "wrong result: \(reason)"
        }
    }
}

import FoundationEssentials
import TerminalCanvas

/// The drawing a store had open last, so `drawtogether` with no drawing named reopens it (and,
/// in a file of its own, the display name given with `--name`).
///
/// One small file per store and database id (beside the replica slots, or in the replica
/// directory `--store` names), shared by the instances that use the store: the last one to
/// switch drawings wins. It is a convenience: a file that cannot be read or written is ignored.
struct LastDrawing {
    let path: String

    init(location: ReplicaLocation, file: String = "last-drawing") {
        let directory = location.explicitReplica ?? "\(location.storeDirectory)/\(location.databaseID)"
        path = directory + "/" + file
    }

    /// The display name saved for the store (`--name`), in a file of its own beside this one.
    static func displayName(location: ReplicaLocation) -> LastDrawing {
        LastDrawing(location: location, file: "display-name")
    }

    /// The cursor colour saved for the store (`--cursor-colour`), a palette name, in a file of
    /// its own beside this one.
    static func cursorColour(location: ReplicaLocation) -> LastDrawing {
        LastDrawing(location: location, file: "cursor-colour")
    }

    /// The remembered drawing id, if any.
    func read() -> String? {
        guard let data = FileManager.default.contents(atPath: path),
            let text = String(validating: data, as: UTF8.self)?.trimmingWhitespace,
            !text.isEmpty, text.count <= 1024
        else { return nil }
        return text
    }

    /// Remembers `id`, readable by this user only.
    func write(_ id: String) {
        let url = URL(fileURLWithPath: path)
        guard (try? Data((id + "\n").utf8).write(to: url, options: .atomic)) != nil else { return }
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }
}

import FoundationEssentials
import Glibc
import ReplicaStore

extension Doctor {
    /// Below this much free space a replica may fail to commit (10,000 strokes take about 12 MB).
    static let minimumFreeBytes: UInt64 = 64 << 20

    /// The store directory (path, modes, free space) and each replica in it (schema, holder).
    /// Nothing is created or written: replicas are opened read-only.
    static func store(_ configuration: Configuration) -> [DoctorFinding] {
        let path = configuration.storeDirectory
        let elsewhere = "choose another store with --store or DRAWTOGETHER_STORE"
        switch StorePath.status(path) {
        case .other:
            return [
                .problem(.store, "\(path) is a file, not a directory; move the file away, or \(elsewhere)")
            ]
        case .unreachable:
            let problem = StorePath.problem(reaching: path)
            return [
                .problem(
                    .store, problem.map(UserMessage.message(for:)) ?? "cannot look at \(path); \(elsewhere)")
            ]
        case .missing:
            let parent = nearestExistingAncestor(of: path)
            guard access(parent, W_OK | X_OK) == 0 else {
                return [
                    .problem(
                        .store,
                        "\(path) does not exist and cannot be made: \(parent) is not writable by you (\(modeText(parent))); give yourself access, or \(elsewhere)"
                    )
                ]
            }
            return [
                freeSpace(
                    at: parent,
                    describing: "no store at \(path) yet (it is made when you first open a drawing)")
            ]
        case .directory:
            break
        }
        guard access(path, W_OK | X_OK) == 0 else {
            return [
                .problem(
                    .store,
                    "\(path) is not writable by you (\(modeText(path))), so no drawing can be saved; give yourself access (chmod u+rwx \(path)), or \(elsewhere)"
                )
            ]
        }
        var findings = [freeSpace(at: path, describing: "\(path) (\(modeText(path)))")]
        if let mode = mode(of: path), mode & 0o077 != 0 {
            findings.append(
                .note(
                    .store,
                    "others can read your drawings in \(path) (mode \(octal(mode))); chmod 700 \(path) to keep them private"
                ))
        }
        let location = configuration.replicaLocation
        let replicas =
            location.explicitReplica.map { [$0] }
            ?? (1...ReplicaLocation.maximumSlots).map(location.slotDirectory).filter {
                StorePath.status($0 + "/" + Replica.databaseFileName) != .missing
            }
        if replicas.isEmpty {
            findings.append(
                .ok(
                    .store,
                    "no replica of database '\(configuration.databaseID)' yet (one is made when you first open a drawing)"
                ))
        }
        for directory in replicas {
            findings.append(replica(directory))
        }
        return findings
    }

    /// One replica: its schema (by opening it read-only), whether it is writable, who holds it.
    private static func replica(_ directory: String) -> DoctorFinding {
        let database = directory + "/" + Replica.databaseFileName
        let drawings: Int
        do {
            drawings = try Replica.openReadOnly(directory: directory).execute("SELECT _id FROM drawings")
                .documents
                .count
        } catch {
            return .problem(.store, "replica \(directory): " + UserMessage.message(for: error))
        }
        guard access(directory, W_OK | X_OK) == 0, access(database, W_OK) == 0 else {
            return .problem(
                .store,
                "replica \(directory) is not writable by you (\(modeText(database))); give yourself access (chmod -R u+rwX \(directory)), or choose another store with --store"
            )
        }
        let holder =
            lockHolder(directory + "/" + Replica.lockFileName).map { "open in process \($0)" } ?? "not open"
        return .ok(
            .store,
            "replica \(directory): schema \(Replica.schemaVersion), \(drawings) drawing\(drawings == 1 ? "" : "s"), \(holder)"
        )
    }

    private static func freeSpace(at path: String, describing what: String) -> DoctorFinding {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return .ok(.store, what) }
        let free = UInt64(info.f_bavail) * UInt64(info.f_frsize)
        let text = Self.byteCount(free)
        guard free >= minimumFreeBytes else {
            return .problem(
                .store,
                "\(what): only \(text) free, so saving may fail; free some space, or choose another store with --store"
            )
        }
        return .ok(.store, "\(what), \(text) free")
    }

    /// The process holding the writer's `flock` on `lockFile`, from /proc/locks (looking there
    /// takes no lock, so a starting instance is never turned away by doctor).
    static func lockHolder(_ lockFile: String) -> Int32? {
        var info = stat()
        guard stat(lockFile, &info) == 0,
            let locks = wholeProcFile("/proc/locks")
        else { return nil }
        // /proc/locks names a file by device (major:minor in hex) and inode.
        let device = UInt64(info.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        let file = [String(major, radix: 16), String(minor, radix: 16), String(info.st_ino)]
        for line in locks.split(separator: "\n") {
            // "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK" else { continue }
            let place = fields[5].split(separator: ":").map { $0.drop { $0 == "0" } }
            let wanted = file.map { $0.drop { $0 == "0" } }
            if place == wanted { return Int32(fields[4]) }
        }
        return nil
    }

    /// A size as a person reads it: `512 bytes`, `9.4 MB`, `212 GB` (units of 1,000, as file
    /// managers show free space; one decimal below 10 of a unit).
    static func byteCount(_ bytes: UInt64) -> String {
        guard bytes >= 1_000 else { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        var value = Double(bytes)
        var unit = 0
        let units = ["KB", "MB", "GB", "TB", "PB", "EB"]
        repeat {
            value /= 1_000
            unit += 1
        } while value >= 999.95 && unit < units.count
        let tenths = Int((value * 10).rounded())
        let number = tenths < 100 ? "\(tenths / 10).\(tenths % 10)" : "\(Int(value.rounded()))"
        return number + " " + units[unit - 1]
    }

    private static func nearestExistingAncestor(of path: String) -> String {
        var directory = path
        while StorePath.status(directory) == .missing, directory != "/" {
            directory = CommandOutput.directoryName(of: directory)
            if directory.isEmpty { directory = "/" }
        }
        return directory
    }

    private static func mode(of path: String) -> UInt32? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return UInt32(info.st_mode) & 0o7777
    }

    private static func modeText(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot stat it" }
        let owner = info.st_uid == getuid() ? "yours" : "owner uid \(info.st_uid)"
        return "mode \(octal(UInt32(info.st_mode) & 0o7777)), \(owner)"
    }

    private static func octal(_ mode: UInt32) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

import FoundationEssentials
import ReplicaCore
import ReplicaStore

/// Where a process's replica lives, and opening it.
///
/// `--store DIR` names either one replica directory (it holds `replica.sqlite`) or a root that
/// holds one folder per database id with numbered slots: `DIR/<database-id>/replica-1`, `-2`, ...
/// A replica is written by one process at a time, so a second instance started the same way takes
/// the next free slot and syncs with the first; readers use the first slot that exists.
struct ReplicaLocation {
    static let databaseFileName = "replica.sqlite"
    /// More instances than this on one machine and one database id is almost surely a mistake.
    static let maximumSlots = 64

    let storeDirectory: String
    let databaseID: String

    /// The explicit replica directory, when `--store` points at one.
    var explicitReplica: String? {
        FileManager.default.fileExists(atPath: storeDirectory + "/" + Self.databaseFileName)
            ? storeDirectory : nil
    }

    /// The bytes of the replica an open for writing most likely takes (the explicit one, else the
    /// first slot; another instance holding it leaves the next, a copy of the same database).
    var likelyStoredBytes: Int {
        Replica.storedBytes(inDirectory: explicitReplica ?? slotDirectory(1))
    }

    func slotDirectory(_ slot: Int) -> String {
        "\(storeDirectory)/\(databaseID)/replica-\(slot)"
    }

    /// Opens the replica for writing: the explicit one, or the first slot no other process holds.
    func openForWriting(configuration: ReplicaConfiguration = .init()) throws -> Replica {
        if let explicit = explicitReplica {
            return announcingTightened(try Replica(directory: explicit, configuration: configuration))
        }
        var lastInUse: (any Error)?
        for slot in 1...Self.maximumSlots {
            let directory = slotDirectory(slot)
            try StorePath.createDirectories(directory)
            do {
                return announcingTightened(try Replica(directory: directory, configuration: configuration))
            } catch ReplicaError.storeInUse(let directory, let holder) {
                lastInUse = ReplicaError.storeInUse(directory: directory, holderPID: holder)
                continue
            }
        }
        throw lastInUse
            ?? ReplicaError.cannotOpenStore(directory: storeDirectory, reason: "no free replica slot")
    }

    /// Opens the first replica for writing, for one-shot commands (`query` with a mutation): the
    /// change must land in the replica the drawings live in, not in a fresh slot nobody opens.
    func openPrimaryForWriting(configuration: ReplicaConfiguration = .init()) throws -> Replica {
        if let explicit = explicitReplica {
            return announcingTightened(try Replica(directory: explicit, configuration: configuration))
        }
        let directory = slotDirectory(1)
        try StorePath.createDirectories(directory)
        return announcingTightened(try Replica(directory: directory, configuration: configuration))
    }

    /// Says, once, that a store's permissions were tightened: the next open finds them private.
    private func announcingTightened(_ replica: Replica) -> Replica {
        if !replica.tightenedPaths.isEmpty {
            printError(
                "drawtogether: warning: other users could read the store; made private (0700/0600): "
                    + replica.tightenedPaths.joined(separator: ", "))
        }
        return replica
    }

    /// Opens the replica for reading, even while another process writes it. "No replica yet" is
    /// said only when there truly is none: a store that cannot be read says why.
    func openForReading() throws -> Replica {
        if let explicit = explicitReplica {
            guard !StorePath.isUnwrittenDatabase(explicit + "/" + Self.databaseFileName) else {
                throw LocationError.noReplica(storeDirectory: storeDirectory, databaseID: databaseID)
            }
            return announcingTightened(try Replica.openReadOnly(directory: explicit))
        }
        for slot in 1...Self.maximumSlots {
            let file = slotDirectory(slot) + "/" + Self.databaseFileName
            switch StorePath.status(file) {
            case .missing:
                continue
            case .other where StorePath.isUnwrittenDatabase(file):
                continue
            case .directory, .other:
                return announcingTightened(try Replica.openReadOnly(directory: slotDirectory(slot)))
            case .unreachable(let code):
                throw StorePath.problem(reaching: file)
                    ?? StoreAccessError.cannotRead(path: file, problem: .system(errno: code))
            }
        }
        if let problem = StorePath.problem(reaching: slotDirectory(1)) { throw problem }
        throw LocationError.noReplica(storeDirectory: storeDirectory, databaseID: databaseID)
    }

    enum LocationError: Error, CustomStringConvertible {
        case noReplica(storeDirectory: String, databaseID: String)

        var description: String {
            switch self {
            case .noReplica(let store, let databaseID):
                return "there is no replica for database '\(databaseID)' in \(store) yet; "
                    + "open a drawing first ('drawtogether open'), or pass --store with a replica directory"
            }
        }
    }
}

extension Configuration {
    var replicaLocation: ReplicaLocation {
        ReplicaLocation(storeDirectory: storeDirectory, databaseID: databaseID)
    }
}

import FoundationEssentials
import Glibc
import ReplicaCore

/// Who is on which drawing, as one running instance knows it: its own user and every peer whose
/// presence it has (local instances and peers across the network or a relay alike).
///
/// Presence is never stored in the replica, so `drawtogether list`, a one-shot read that meets no
/// peer, cannot know it by itself. Each interactive instance therefore keeps a small file,
/// `who-is-where-PID`, beside `last-drawing` (per store and database id), rewritten when someone
/// arrives, leaves or changes drawing (not as cursors move) and removed when it exits; `list`
/// reads the files of the instances still running. A killed instance's file is left behind and
/// ignored, since its process is gone.
struct Whereabouts: Equatable {
    /// One person on a drawing.
    struct Person: Equatable {
        var peerID: UInt64
        var name: String
        var drawingID: String
    }

    /// In peer id order.
    var people: [Person]

    static let filePrefix = "who-is-where-"

    /// The file's text: `{"pid": N, "people": [{"peer": "hex", "name": …, "drawing": …}]}`.
    func json(pid: Int32) -> String {
        let people = people.map { person -> DocumentValue in
            .object([
                "peer": .string(String(person.peerID, radix: 16)), "name": .string(person.name),
                "drawing": .string(person.drawingID),
            ])
        }
        return DocumentValue.object(["pid": .number(Double(pid)), "people": .array(people)]).jsonString()
    }

    /// Reads a file's text; nil when it is not one (a file half written by a build that crashed,
    /// or something else entirely).
    init?(json: String) {
        guard let root = try? DocumentValue(json: json, maximumSize: 1 << 20)
        else { return nil }
        guard case .array(let entries)? = root.objectValue?["people"] else { return nil }
        var people: [Person] = []
        for entry in entries {
            guard let fields = entry.objectValue, let peer = fields["peer"]?.stringValue,
                let peerID = UInt64(peer, radix: 16), let name = fields["name"]?.stringValue,
                let drawingID = fields["drawing"]?.stringValue
            else { return nil }
            people.append(Person(peerID: peerID, name: name, drawingID: drawingID))
        }
        self.people = people
    }

    init(people: [Person]) {
        self.people = people.sorted { $0.peerID < $1.peerID }
    }

    /// What the running instances of a store know, read from their files in `directory`.
    struct Known: Equatable {
        /// How many running instances wrote a file.
        var instances: Int
        /// Everyone they see, each person once (in peer id order).
        var people: [Person]

        /// The names of the people on a drawing.
        func names(on drawingID: String) -> [String] {
            people.filter { $0.drawingID == drawingID }.map(\.name)
        }
    }

    /// Reads every instance's file in `directory`; `isRunning` tells whether the process with a
    /// pid still runs (a file whose writer is gone is left out).
    static func known(in directory: String, isRunning: (Int32) -> Bool = Whereabouts.isRunning) -> Known {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var instances = 0
        var people: [UInt64: Person] = [:]
        for name in names.sorted() where name.hasPrefix(filePrefix) {
            guard let pid = Int32(name.dropFirst(filePrefix.count)), isRunning(pid),
                let data = FileManager.default.contents(atPath: directory + "/" + name),
                let text = String(data: data, encoding: .utf8), let whereabouts = Whereabouts(json: text)
            else { continue }
            instances += 1
            for person in whereabouts.people where people[person.peerID] == nil {
                people[person.peerID] = person
            }
        }
        return Known(instances: instances, people: people.values.sorted { $0.peerID < $1.peerID })
    }

    /// Whether a process runs (one of another user's counts too: `EPERM`).
    static func isRunning(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }
}

/// One instance's whereabouts file. Like `LastDrawing`, a convenience: a failed write is ignored.
struct WhereaboutsFile {
    let directory: String
    let pid: Int32

    init(location: ReplicaLocation, pid: Int32 = getpid()) {
        self.init(
            directory: location.explicitReplica ?? "\(location.storeDirectory)/\(location.databaseID)",
            pid: pid)
    }

    init(directory: String, pid: Int32) {
        self.directory = directory
        self.pid = pid
    }

    var path: String { "\(directory)/\(Whereabouts.filePrefix)\(pid)" }

    /// Replaces the file, readable by this user only.
    func write(_ whereabouts: Whereabouts) {
        let url = URL(fileURLWithPath: path)
        guard (try? Data(whereabouts.json(pid: pid).utf8).write(to: url, options: .atomic)) != nil else {
            return
        }
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

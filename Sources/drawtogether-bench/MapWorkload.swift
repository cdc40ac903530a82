import DrawingSync
import FoundationEssentials
import ReplicaCore
import ReplicaStore
import StrokeKit

/// The map workload of crdt-and-sync.md §2.2 on two real SQLite replicas: keys `stroke-%06d`,
/// 200-character random base64 values (150 random bytes: nothing for a compressor to find), each
/// write its own transaction (like a live stroke), peers with fixed ids 1 and 2.
///
/// Sync is version-vector style, as the sync session does it: each side's versions, then the
/// changes the other lacks, encoded, decoded and applied crosswise with an observer on the
/// document (so applying includes persisting in SQLite and firing observers), then a check that
/// both replicas show the same document.
struct MapWorkload {
    enum Scenario: String, CaseIterable {
        /// A writes keys [0, N/2), B the rest.
        case disjoint
        /// Both write all N keys: N conflicts.
        case overlap
        /// A writes N keys, then overwrites every one 4 more times.
        case overwrite
        /// `overwrite`, then A deletes half the keys.
        case deleteHalf = "delete-half"
    }

    static let collection = "drawings"
    static let documentID = "bench"
    /// The document every write goes to, made once as the coordinator makes its drawing's.
    static let documentKey = DocumentKey(collection: collection, id: documentID)

    let keys: Int
    /// A directory shared by the scenario workers: `overwrite` leaves a copy of its peer A there
    /// (with its write time), and `delete-half` starts from that copy instead of repeating the
    /// same 5N writes, which would double the longest part of the run.
    let handoff: String?
    let report: FigureReport

    func run(_ scenario: Scenario) throws {
        let startRSS = BenchClock.residentMegabytes() ?? 0
        let stores = try TemporaryStores("replica-\(scenario.rawValue)")
        let prefix = "replica.\(scenario.rawValue)"
        let pathB = stores.path("b")
        // The replicas are closed when this returns, so B can be opened again.
        let expectedKeys = try writeAndSync(scenario, stores: stores)

        // Reopen: load every event from SQLite and read the document (materialized).
        let (reopened, reopenSeconds) = try BenchClock.measure { () throws -> Int in
            let replica = try Replica(directory: pathB)
            let result = try replica.execute(Self.selectDocument, arguments: Self.idArgument)
            return result.documents.first?["strokes"]?.objectValue?.count ?? 0
        }
        guard reopened == expectedKeys else {
            throw BenchError.wrongResult(
                "\(scenario.rawValue): reopened with \(reopened) keys, expected \(expectedKeys)")
        }
        report.add("\(prefix).reopen", reopenSeconds, "s", [("note", .text("open B and read the document"))])
        // As the app gives its free heap back once idle (`IdleHeapRelease`).
        HeapRelease.release()
        let rss = BenchClock.residentMegabytes() ?? 0
        report.add("\(prefix).rss", rss, "MB", [("delta_mb", .number(rss - startRSS))])
    }

    /// Local writes on both peers, then the crosswise sync; returns the keys both must show.
    private func writeAndSync(_ scenario: Scenario, stores: TemporaryStores) throws -> Int {
        var random = BenchRandom(seed: 0x5EED_0000 + UInt64(Scenario.allCases.firstIndex(of: scenario) ?? 0))
        let prefix = "replica.\(scenario.rawValue)"
        let pathB = stores.path("b")
        let pathA = stores.path("a")
        var reusedWriteSeconds: Double?
        if scenario == .deleteHalf, let handoff {
            reusedWriteSeconds = Self.takeOverwriteStore(from: handoff, to: pathA)
        }
        let a = try Replica(directory: pathA, configuration: ReplicaConfiguration(peerID: PeerID(1)))
        let b = try Replica(directory: pathB, configuration: ReplicaConfiguration(peerID: PeerID(2)))

        // Local writes.
        let keyNames = (0..<keys).map { Self.key($0) }
        var writesA: [(String, [UInt8])] = []
        var writesB: [(String, [UInt8])] = []
        func values(_ range: Range<Int>) -> [(String, [UInt8])] {
            range.map { (keyNames[$0], random.bytes(150)) }
        }
        switch scenario {
        case .disjoint:
            writesA = values(0..<(keys / 2))
            writesB = values((keys / 2)..<keys)
        case .overlap:
            writesA = values(0..<keys)
            writesB = values(0..<keys)
        case .overwrite, .deleteHalf:
            if reusedWriteSeconds == nil {
                for _ in 0..<5 { writesA += values(0..<keys) }
            }
        }
        let writeCount = scenario == .overwrite || scenario == .deleteHalf ? 5 * keys : writesA.count
        var writeCPU: Double?
        let writeA: Double
        // The floor's commits, timed beside A's writes (see `writeBesideFloor`):
        // `replica.floor.commit` in the disjoint scenario, each other scenario's own.
        let floorFigure = scenario == .disjoint ? nil : "\(prefix).floor.commit"
        var floorCommits: (commits: FloorCommit.Commits, record: [UInt8])?
        if let reusedWriteSeconds {
            writeA = reusedWriteSeconds
        } else if writesA.isEmpty {
            writeA = 0
        } else {
            let floor = try FloorDatabase(
                path: stores.root + "/\(FloorCommit.fileName(false, floorFigure)).sqlite", autoVacuum: false,
                checkpointsApart: false)
            let measured = try Self.writeBesideFloor(writesA, into: a, storeDirectory: pathA, floor: floor)
            (writeA, writeCPU) = (measured.write.seconds, measured.write.cpuSeconds)
            floorCommits = (measured.floor, measured.lastRecord)
        }
        if scenario == .overwrite, let handoff {
            try Self.keepOverwriteStore(pathA, writeSeconds: writeA, in: handoff)
        }
        var deleteSeconds = 0.0
        if scenario == .deleteHalf {
            deleteSeconds = try BenchClock.measure {
                for index in 0..<(keys / 2) { try Self.unset(keyNames[index * 2], in: a) }
            }.seconds
        }
        // The floor, measured in the same process beside A's writes, with the bytes of A's log
        // rows (in the overwrite, the new value and the removed form of the one it replaced):
        // `replica.floor.commit` (and its auto-vacuum twin, measured after) in the disjoint
        // scenario, each other scenario's own beside it, so that every write's ratio to it is
        // read in one process.
        var floorPerWrite: Double?
        if let (commits, record) = floorCommits {
            let count = writesA.count  // the floor committed one row for each write
            let note = scenario == .disjoint ? nil : "as replica.floor.commit, in this scenario's process"
            floorPerWrite = try FloorCommit(report: report).add(
                commits, record: record, count: count, directory: stores.root, figure: floorFigure, note: note
            )
            if scenario == .disjoint {
                try FloorCommit(report: report).run(
                    record: record, count: count, directory: stores.root, autoVacuum: true)
            }
        }
        let writeB = try BenchClock.measure { try Self.write(writesB, into: b) }.seconds
        let operations = writeCount + (scenario == .deleteHalf ? keys / 2 : 0)
        // A write's time over the floor's commit in this process (none where the writes were
        // timed in another: delete-half reuses the overwrite's).
        let floorRatio: [(key: String, value: Figure.Detail)] =
            floorPerWrite.map { [("floor_ratio", .number(writeA * 1e6 / Double(max(1, writeCount)) / $0))] }
            ?? []
        report.add(
            "\(prefix).write", writeA + deleteSeconds, "s",
            [
                ("writes", .number(Double(operations))),
                ("us_per_write", .number((writeA + deleteSeconds) * 1e6 / Double(max(1, operations)))),
            ] + floorRatio + [
                (
                    "note",
                    .text(
                        reusedWriteSeconds == nil
                            ? "peer A, one transaction per write"
                            : "peer A, one transaction per write; the 5N writes are the overwrite run's (its store copied)"
                    )
                )
            ])
        if scenario == .deleteHalf {
            report.add("\(prefix).delete", deleteSeconds, "s", [("deletes", .number(Double(keys / 2)))])
        }
        if let writeCPU, scenario != .deleteHalf {
            // The CPU this thread spent per write, comparable with the floor's `cpu_us_per_write`
            // under any load (the wall figures of one run drift apart when the machine is busy).
            report.add(
                "\(prefix).write.cpu", writeCPU * 1e6 / Double(max(1, writeCount)), "us",
                [("note", .text("CPU (user and system) of this thread per write of peer A"))])
        }
        if !writesB.isEmpty {
            report.add("\(prefix).write.b", writeB, "s", [("writes", .number(Double(writesB.count)))])
        }

        // What the app's idle steps do between writes: snapshots, which compact first. Neither
        // peer has met another yet, so whatever was removed (superseded values, UNSETs and what
        // they removed) can go, and the first sync of such a document is its whole state.
        let (droppedAlone, compactSeconds) = try BenchClock.measure { try a.compact() + b.compact() }
        report.add(
            "\(prefix).compact", compactSeconds, "s",
            [
                ("dropped", .number(Double(droppedAlone))),
                ("note", .text("both peers' background snapshots and compaction before they first meet")),
            ])

        // Observers on both sides, as the coordinator has one on its drawing.
        var deliveriesA = 0
        var deliveriesB = 0
        let tokenA = a.observeDocument(Self.documentID, in: Self.collection) { _ in deliveriesA += 1 }
        let tokenB = b.observeDocument(Self.documentID, in: Self.collection) { _ in deliveriesB += 1 }
        defer {
            tokenA.cancel()
            tokenB.cancel()
        }

        // Version vectors, deltas each way, crosswise apply.
        let versionsA = try a.versions(collection: Self.collection, documentID: Self.documentID)
        let versionsB = try b.versions(collection: Self.collection, documentID: Self.documentID)
        report.add(
            "\(prefix).versions", Double(versionsB.encoded().count), "bytes",
            [("note", .text("B's version vectors, encoded"))])
        let (deltaAB, encodeSeconds) = try BenchClock.measure { try Self.outgoing(from: a, since: versionsB) }
        let deltaBA = try Self.outgoing(from: b, since: versionsA)
        report.add(
            "\(prefix).encode", encodeSeconds, "s",
            [("note", .text("A's changes since B's versions (or A's whole state), encoded"))])
        for (direction, message) in [("a_to_b", deltaAB), ("b_to_a", deltaBA)] {
            let kind = message.whole ? "whole state" : message.bytes.isEmpty ? "nothing new" : "delta"
            report.add(
                "\(prefix).delta.\(direction)", Double(message.bytes.count), "bytes", [("kind", .text(kind))])
        }

        let beforeB = deliveriesB
        let faultsBefore = BenchClock.threadMinorFaults()
        let applyB = try BenchClock.measure { try Self.apply(deltaAB, to: b) }.seconds
        let applyFaults = BenchClock.threadMinorFaults() - faultsBefore
        let beforeA = deliveriesA
        let applyA = try BenchClock.measure { try Self.apply(deltaBA, to: a) }.seconds
        // A document observer hears of every commit that changed what its document shows, with
        // patches of the paths whose value changed (in `overlap` B's own later writes win every
        // conflict, so A's delta changes nothing B shows and B's observer is not called).
        report.add(
            "\(prefix).apply", applyB, "s",
            [
                ("observer_deliveries", .number(Double(deliveriesB - beforeB))),
                ("minor_faults", .number(Double(applyFaults))),
                (
                    "note",
                    .text(
                        "B decodes and applies A's delta (adopts its whole state): one SQLite transaction, document observer patched"
                    )
                ),
            ])
        report.add(
            "\(prefix).apply.b_to_a", applyA, "s",
            [("observer_deliveries", .number(Double(deliveriesA - beforeA)))])
        if deliveriesA == beforeA && deliveriesB == beforeB {
            throw BenchError.wrongResult("\(scenario.rawValue): no observer fired on either side")
        }
        if !deltaAB.whole {
            // The floor of B's apply in the same run: the log row it stored, committed by bare
            // SQLite (what persisting the delta costs before any merge, decode or observer).
            try FloorCommit(report: report).run(
                record: FloorCommit.lastLogRecord(ofStoreIn: pathB), count: 5, directory: stores.root,
                figure: "\(prefix).floor.apply",
                note:
                    "bare SQLite: the log row B's apply stored, in one prepared transaction (median of 5), WAL/NORMAL",
                medianOfOne: true)
        }
        let documentA = try a.execute(Self.selectDocument, arguments: Self.idArgument)
        let documentB = try b.execute(Self.selectDocument, arguments: Self.idArgument)
        guard documentA == documentB else {
            throw BenchError.wrongResult("\(scenario.rawValue): the replicas differ after sync")
        }
        let visibleKeys = documentA.documents.first?["strokes"]?.objectValue?.count ?? 0
        let expectedKeys = scenario == .deleteHalf ? keys - keys / 2 : keys
        guard visibleKeys == expectedKeys else {
            throw BenchError.wrongResult(
                "\(scenario.rawValue): \(visibleKeys) keys after sync, expected \(expectedKeys)")
        }

        // Full state: every event, as a delta to an empty replica; and the files on disk.
        let fullState = try a.changes(
            collection: Self.collection, documentID: Self.documentID, since: DocumentVersions())
        report.add(
            "\(prefix).state", Double(fullState.encoded().count), "bytes",
            [("events", .number(Double(fullState.eventCount))), ("note", .text("full state as one delta"))])
        report.add(
            "\(prefix).disk", Double(TemporaryStores.bytes(under: pathB)) / 1e6, "MB",
            [("note", .text("B's store directory: SQLite file and WAL"))])

        // The full state once each peer has said it holds all of the other's: what compaction
        // leaves (superseded values and removals every peer has seen are dropped). The figure the
        // goals compare with a Yrs state, whose deleted content is garbage-collected at once.
        for (from, to) in [(a, b), (b, a)] {
            to.recordPeerVersions(
                try from.versions(collection: Self.collection, documentID: Self.documentID),
                collection: Self.collection, peer: from.peerID)
        }
        let dropped = try a.compact()
        let compacted = a.fullState(
            collection: Self.collection, documentID: Self.documentID, since: DocumentVersions())
        report.add(
            "\(prefix).state.compacted",
            Double(compacted?.encoded().count ?? fullState.encoded().count), "bytes",
            [
                ("events", .number(Double(compacted?.delta.eventCount ?? fullState.eventCount))),
                ("dropped", .number(Double(dropped))),
                ("note", .text("full state after both peers acknowledged everything and A compacted")),
            ])

        return expectedKeys
    }

    private static let overwriteStoreName = "overwrite-a"

    static func keepOverwriteStore(_ path: String, writeSeconds: Double, in handoff: String) throws {
        let target = handoff + "/" + overwriteStoreName
        try? FileManager.default.removeItem(atPath: target)
        // A is idle between transactions: its database file and WAL copy as a consistent pair.
        try FileManager.default.copyItem(atPath: path, toPath: target)
        try "\(writeSeconds)".write(toFile: target + ".seconds", atomically: true, encoding: .utf8)
    }

    /// Moves the overwrite run's peer A to `path`; its write time, or nil when there is none.
    static func takeOverwriteStore(from handoff: String, to path: String) -> Double? {
        let source = handoff + "/" + overwriteStoreName
        guard let text = try? String(contentsOfFile: source + ".seconds", encoding: .utf8),
            let seconds = Double(text),
            (try? FileManager.default.moveItem(atPath: source, toPath: path)) != nil
        else { return nil }
        return seconds
    }

    static func key(_ index: Int) -> String {
        let digits = String(index)
        return "stroke-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    static let selectDocument = DQLStatement.select(
        DQLSelect(projection: .allFields, collection: collection, filter: DQLFilter(id: .string(documentID))))
    static let idArgument: [String: DocumentValue] = [:]

    static func write(_ entries: [(String, [UInt8])], into replica: Replica) throws {
        for (key, value) in entries {
            try write(key: key, value: value, into: replica)
        }
    }

    /// Writes `entries` into `replica` a slice at a time, each slice followed by as many of the
    /// floor's commits (the bytes of the replica's last log row so far, read between them), each
    /// side timed alone. On a shared machine whose speed drifts by a third within minutes, the
    /// writes and the floor measured one after the other were measured at different speeds; in
    /// slices side by side, both see the same moments, and both tables grow alike. Returns both
    /// sides' times and the bytes the floor committed last.
    static func writeBesideFloor(
        _ entries: [(String, [UInt8])], into replica: Replica, storeDirectory: String, floor: FloorDatabase
    ) throws -> (write: FloorCommit.Commits, floor: FloorCommit.Commits, lastRecord: [UInt8]) {
        var written = FloorCommit.Commits()
        var floorTimes = FloorCommit.Commits()
        var record: [UInt8] = []
        var start = 0
        while start < entries.count {
            let end = min(entries.count, start + floorSlice)
            let slice = Array(entries[start..<end])
            let writes = try BenchClock.measureWithCPU { try write(slice, into: replica) }
            written.seconds += writes.seconds
            written.cpuSeconds += writes.cpuSeconds
            record = try FloorCommit.lastLogRecord(ofStoreIn: storeDirectory)
            let commits = try BenchClock.measureWithCPU {
                for _ in slice.indices { try floor.commit(record) }
            }
            floorTimes.seconds += commits.seconds
            floorTimes.cpuSeconds += commits.cpuSeconds
            start = end
        }
        return (written, floorTimes, record)
    }

    /// The writes between two turns of the floor in `writeBesideFloor`.
    private static let floorSlice = 250

    /// The coordinator's write of one stroke (`DrawingSyncCoordinator`'s flush): one transaction
    /// upserting the entry's path and value (the string that is the base64 text of `value`, held
    /// as its bytes, as the coordinator writes a stroke group), which writes only what differs.
    static func write(key: String, value: [UInt8], into replica: Replica) throws {
        try replica.write { transaction -> Void in
            try transaction.upsert(
                [DocumentEntry(path: ["strokes", key], value: .base64(value))], into: documentKey)
        }
    }

    static func unset(_ key: String, in replica: Replica) throws {
        try replica.execute(
            .update(
                DQLUpdate(
                    collection: collection, actions: [.unset(DQLPath(["strokes", key]))],
                    filter: DQLFilter(id: .string(documentID)))))
    }

    /// What `replica` sends a peer holding `versions`, as the sync session chooses it: the whole
    /// state when the peer cannot be sent a delta (the document compacted what it lacks), else
    /// the delta, encoded; and no bytes when there is nothing new, as the session's delta message
    /// then carries an empty body (`ReplicaSyncAdapter.encodedChanges`), not an encoded empty
    /// delta (13 bytes of header, collection and count that no peer is sent).
    static func outgoing(from replica: Replica, since versions: DocumentVersions) throws -> (
        bytes: [UInt8], whole: Bool
    ) {
        if let whole = replica.fullState(collection: collection, documentID: documentID, since: versions) {
            return (whole.encoded(), true)
        }
        let delta = try replica.changes(collection: collection, documentID: documentID, since: versions)
        return (delta.isEmpty ? [] : delta.encoded(), false)
    }

    /// Decodes and applies what `outgoing` encoded; a refusal is a wrong result here (nothing is
    /// missing).
    static func apply(_ message: (bytes: [UInt8], whole: Bool), to replica: Replica) throws {
        if message.whole {
            _ = try replica.adopt(try ReplicaFullState(decoding: message.bytes))
            return
        }
        guard !message.bytes.isEmpty else { return }
        let delta = try ReplicaDelta(decoding: message.bytes)
        guard case .applied = try replica.apply(delta) else {
            throw BenchError.wrongResult("a delta was refused")
        }
    }
}

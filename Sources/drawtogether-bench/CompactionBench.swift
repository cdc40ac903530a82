import FoundationEssentials
import ReplicaCore
import ReplicaStore
import StrokeKit

/// `replica.compaction.*`: a drawing of 2,000 strokes erased and redrawn ten times on peer A, a
/// flush of 100 strokes a transaction, both peers synced after each round (deltas crosswise and
/// each told what the other holds, as the sync session does); then the background steps run
/// until nothing is left, as an idle loop runs them. The disk ratio is A's database file against
/// a fresh replica that holds only the final drawing (both closed, so their WAL is folded in).
struct CompactionBench {
    let report: FigureReport
    static let scenario = "compaction"
    static let strokes = 2_000
    static let rounds = 10

    func run() throws {
        let stores = try TemporaryStores("replica-compaction")
        var random = BenchRandom(seed: 0x5EED_C0C0)
        let values = (0...Self.rounds).map { _ in
            (0..<Self.strokes).map { _ in Base64.encode(random.bytes(120)) }
        }
        var stepSeconds = 0.0
        var dropped = 0
        do {
            let a = try Replica(
                directory: stores.path("a"), configuration: ReplicaConfiguration(peerID: PeerID(1)))
            let b = try Replica(
                directory: stores.path("b"), configuration: ReplicaConfiguration(peerID: PeerID(2)))
            for round in 0...Self.rounds {
                stepSeconds += try write(values[round], round: round, into: a)
                try sync(a, b)
                if round < Self.rounds {
                    stepSeconds += try erase(round: round, in: a)
                    try sync(a, b)
                }
            }
            let held = a.state(eventCount: "drawing-1")
            stepSeconds += BenchClock.measure { while a.backgroundStep() {} }.seconds
            dropped = held - a.state(eventCount: "drawing-1")
        }
        do {
            let fresh = try Replica(
                directory: stores.path("fresh"), configuration: ReplicaConfiguration(peerID: PeerID(3)))
            _ = try write(values[Self.rounds], round: Self.rounds, into: fresh)
            try fresh.checkpoint()
        }
        let compacted = Self.fileBytes(stores.path("a"))
        let fresh = Self.fileBytes(stores.path("fresh"))
        report.add(
            "replica.compaction.disk_ratio", Double(compacted) / Double(max(1, fresh)), "x",
            [
                ("compacted_bytes", .number(Double(compacted))), ("fresh_bytes", .number(Double(fresh))),
                (
                    "note",
                    .text(
                        "A's file after 2,000 strokes erased and redrawn 10 times and compaction, against a fresh replica of the final drawing"
                    )
                ),
            ])
        report.add(
            "replica.compaction.background", stepSeconds, "s",
            [
                ("dropped_after_sync", .number(Double(dropped))),
                ("note", .text("every background step of A: snapshots, compaction, peer versions, vacuum")),
            ])
    }

    private func write(_ values: [String], round: Int, into replica: Replica) throws -> Double {
        var seconds = 0.0
        for batch in stride(from: 0, to: Self.strokes, by: 100) {
            // As the coordinator writes them: entries, one transaction a batch.
            let entries = (batch..<(batch + 100)).map {
                DocumentEntry(path: ["strokes", "r\(round)-\($0)"], value: .string(values[$0]))
            }
            try replica.write { transaction -> Void in
                try transaction.upsert(entries, into: "drawings", id: "drawing-1")
            }
            seconds += BenchClock.measure { replica.backgroundStep() }.seconds
        }
        return seconds
    }

    private func erase(round: Int, in replica: Replica) throws -> Double {
        var seconds = 0.0
        for batch in stride(from: 0, to: Self.strokes, by: 100) {
            let paths = (batch..<(batch + 100)).map { ["strokes", "r\(round)-\($0)"] }
            try replica.write { transaction -> Void in
                try transaction.unset(paths, in: "drawings", id: "drawing-1")
            }
            seconds += BenchClock.measure { replica.backgroundStep() }.seconds
        }
        return seconds
    }

    private func sync(_ a: Replica, _ b: Replica) throws {
        for (from, to) in [(a, b), (b, a)] {
            let delta = try from.changes(
                collection: "drawings", documentID: nil,
                since: try to.versions(collection: "drawings", documentID: nil))
            if !delta.isEmpty { _ = try to.apply(delta) }
        }
        for (from, to) in [(a, b), (b, a)] {
            to.recordPeerVersions(
                try from.versions(collection: "drawings", documentID: nil), collection: "drawings",
                peer: from.peerID)
        }
    }

    private static func fileBytes(_ directory: String) -> Int {
        TemporaryStores.size(ofFile: directory + "/replica.sqlite")
    }
}

extension Replica {
    /// Events held of a drawing (live and removed), from what a full state would send.
    fileprivate func state(eventCount id: String) -> Int {
        (try? changes(collection: "drawings", documentID: id, since: DocumentVersions()).eventCount) ?? 0
    }
}

import DrawingSync
import ReplicaCore
import ReplicaStore
import StrokeKit

/// B1-style live streaming: peer A makes N single-key writes; after each, the changes B lacks
/// (since B's versions, as the sync session asks) are encoded, decoded and applied to B one at a
/// time. Run twice: once with a document observer on B's document (the app always has one: the
/// coordinator's), once without, so the observer's share is visible.
///
/// Between updates both replicas run their background steps, as the app's loop does when it is
/// idle between a peer's updates (`ReplicaIdleSteps`: snapshots, and checkpoints of SQLite's
/// log, which SQLite would otherwise run inside every few hundredth commit): timed apart, as
/// `live.idle_steps`.
struct LiveSyncBench {
    let updates: Int
    let report: FigureReport

    func run() throws {
        let stores = try TemporaryStores("live")
        for observed in [true, false] {
            try run(observed: observed, stores: stores)
        }
        // As the app gives its free heap back once idle (`IdleHeapRelease`).
        HeapRelease.release()
        report.add("live.rss", BenchClock.residentMegabytes() ?? 0, "MB")
    }

    private func run(observed: Bool, stores: TemporaryStores) throws {
        let suffix = observed ? "" : ".no_observer"
        let a = try Replica(
            directory: stores.path("a\(suffix)"), configuration: ReplicaConfiguration(peerID: PeerID(1)))
        let b = try Replica(
            directory: stores.path("b\(suffix)"), configuration: ReplicaConfiguration(peerID: PeerID(2)))
        var random = BenchRandom(seed: 0x11FE)
        var deliveries = 0
        let token =
            observed
            ? b.observeDocument(MapWorkload.documentID, in: MapWorkload.collection) { _ in
                deliveries += 1
            }
            : nil
        defer { token?.cancel() }

        var bytes = 0
        var writeSeconds = 0.0
        var shipSeconds = 0.0
        var applySeconds = 0.0
        var applies = DurationSample()
        var idleSeconds = 0.0
        for index in 0..<updates {
            let value = random.bytes(150)
            writeSeconds += try BenchClock.measure {
                try MapWorkload.write(key: MapWorkload.key(index), value: value, into: a)
            }.seconds
            let (encoded, encodeSeconds) = try BenchClock.measure {
                let since = try b.versions(
                    collection: MapWorkload.collection, documentID: MapWorkload.documentID)
                return try a.changes(
                    collection: MapWorkload.collection, documentID: MapWorkload.documentID, since: since
                )
                .encoded()
            }
            shipSeconds += encodeSeconds
            bytes += encoded.count
            let apply = try BenchClock.measure { try MapWorkload.apply((encoded, false), to: b) }.seconds
            applySeconds += apply
            applies.add(apply)
            idleSeconds +=
                BenchClock.measure {
                    while a.backgroundStep() {}
                    while b.backgroundStep() {}
                }.seconds
        }
        let visible =
            try b.execute(MapWorkload.selectDocument, arguments: MapWorkload.idArgument)
            .documents.first?["strokes"]?.objectValue?.count ?? 0
        guard visible == updates else {
            throw BenchError.wrongResult("live: B shows \(visible) keys after \(updates) updates")
        }
        if observed, deliveries < updates {
            throw BenchError.wrongResult(
                "live: B's observer fired \(deliveries) times for \(updates) updates")
        }
        if observed {
            // The floor of a live apply in the same run: bare commits of the row B stored last.
            try FloorCommit(report: report).run(
                record: FloorCommit.lastLogRecord(ofStoreIn: stores.path("b")), count: updates,
                directory: stores.root, figure: "live.floor.commit")
        }
        let n = Double(updates)
        report.add(
            "live\(suffix).update_bytes", Double(bytes) / n, "bytes",
            [("updates", .number(n)), ("note", .text("encoded delta per single-key update"))])
        report.add(
            "live\(suffix).apply", applySeconds * 1e6 / n, "us",
            [
                ("p50_us", .number(applies.median * 1e6)), ("p99_us", .number(applies.percentile(99) * 1e6)),
                ("max_us", .number(applies.percentile(100) * 1e6)), ("total_s", .number(applySeconds)),
                (
                    "note",
                    .text(
                        observed
                            ? "decode + apply + SQLite commit + observer on the document"
                            : "decode + apply + SQLite commit")
                ),
            ])
        report.add(
            "live\(suffix).encode", shipSeconds * 1e6 / n, "us",
            [("note", .text("B's versions, A's changes since them, encoded"))])
        report.add(
            "live\(suffix).write", writeSeconds * 1e6 / n, "us",
            [("note", .text("A's local write, one transaction"))])
        report.add(
            "live\(suffix).idle_steps", idleSeconds * 1e6 / n, "us",
            [
                (
                    "note",
                    .text(
                        "both replicas' background steps after each update, as the loop runs them when idle (snapshots, SQLite log checkpoints)"
                    )
                )
            ])
    }
}

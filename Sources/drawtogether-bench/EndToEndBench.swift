import Dispatch
import DrawingSync
import EventRuntime
import FoundationEssentials
import Glibc
import ReplicaCore
import ReplicaStore
import ReplicaSync
import StrokeKit
import TerminalCanvas

/// Two peers, each on its own thread with its own event loop, replica and coordinator, connected
/// by a real socket (Unix, then TCP on loopback, which the session encrypts), both holding the
/// same N-stroke drawing. Per new stroke: from just before A's coordinator flush until B's
/// coordinator has taken the change and B's canvas document is updated from it (what the app
/// does before it renders).
struct EndToEndBench {
    static let drawingID = "bench-e2e"

    let strokes: Int
    let samples: Int
    let budgetSeconds: Double
    let report: FigureReport

    func run() throws {
        for transport in ["unix", "tcp"] {
            try run(transport: transport)
        }
        report.add(
            "e2e.rss", BenchClock.residentMegabytes() ?? 0, "MB", [("note", .text("both peers, one process"))]
        )
    }

    private func run(transport: String) throws {
        let stores = try TemporaryStores("e2e-\(transport)")
        let pathA = stores.path("a")
        let pathB = stores.path("b")
        try Self.prepare(strokes: strokes, pathA: pathA, pathB: pathB)

        let link = PeerLink()
        let loopA = try PollEventLoop(clock: .system)
        let endpoint: SocketEndpoint =
            transport == "unix" ? .unix(path: stores.path("b.sock")) : .tcp(host: "127.0.0.1", port: 0)
        DispatchQueue(label: "bench peer B").async {
            Self.runPeerB(path: pathB, endpoint: endpoint, link: link, wake: loopA)
        }
        defer {
            link.stopPeer()
            let deadline = BenchClock.now() + 5_000_000_000
            while !link.isFinished && BenchClock.now() < deadline { usleep(1_000) }
        }

        let replica = try Replica(directory: pathA)
        try replica.addSubscription(ReplicaSyncAdapter.drawings)
        let adapter = ReplicaSyncAdapter(replica: replica)
        let node = SyncNode(
            loop: loopA, transport: SocketTransport(loop: loopA), replica: adapter,
            configuration: Self.session(adapter, name: "bench peer A"))
        adapter.forwardLocalCommits(to: node)
        let coordinator = DrawingSyncCoordinator(replica: replica, drawingID: Self.drawingID)
        defer {
            node.shutdown()
            loopA.run(until: { false }, timeout: .milliseconds(200))
        }

        let waitStart = BenchClock.now()
        while link.endpoint == nil && link.failure == nil && BenchClock.seconds(since: waitStart) < 30 {
            usleep(1_000)
        }
        guard let bound = link.endpoint else {
            throw BenchError.setup("peer B did not start listening: \(link.failure ?? "timed out")")
        }
        node.connect(to: bound)
        guard loopA.run(until: { node.status.peers.count == 1 }, timeout: .seconds(30)) else {
            throw BenchError.setup("peer A did not connect to B over \(transport)")
        }

        var sample = SampleDrawing(seed: 0xE2E0 + UInt64(transport.count), peer: "e2e" + transport)
        var latencies = DurationSample()
        var flushes = DurationSample()
        let warmUp = 5
        let started = BenchClock.now()
        var stoppedEarly = false
        for index in 0..<(samples + warmUp) {
            if index >= warmUp, BenchClock.seconds(since: started) > budgetSeconds {
                stoppedEarly = true
                break
            }
            guard let group = sample.nextGroup() else { continue }
            coordinator.edit(now: 0) { $0.insert(group) }
            let flushStart = BenchClock.now()
            try coordinator.flush()
            let flushEnd = BenchClock.now()
            let arrived = loopA.run(
                until: { link.arrival(of: group.key.rawValue) != nil }, timeout: .seconds(30))
            guard arrived, let arrival = link.arrival(of: group.key.rawValue) else {
                throw BenchError.wrongResult("stroke \(index) did not reach B over \(transport) within 30 s")
            }
            guard index >= warmUp else { continue }
            latencies.add(Double(arrival &- flushStart) / 1e9)
            flushes.add(Double(flushEnd - flushStart) / 1e9)
        }
        if let failure = link.failure { throw BenchError.setup("peer B: \(failure)") }
        var details: [(key: String, value: Figure.Detail)] = [
            ("samples", .number(Double(latencies.count))), ("drawing_strokes", .number(Double(strokes))),
            ("p99_ms", .number(latencies.percentile(99) * 1e3)), ("mean_ms", .number(latencies.mean * 1e3)),
            ("flush_p50_ms", .number(flushes.median * 1e3)),
        ]
        if stoppedEarly {
            details.append(
                (
                    "note",
                    .text(
                        "stopped after \(latencies.count) of \(samples) strokes: the \(Int(budgetSeconds)) s budget ran out"
                    )
                ))
        } else {
            details.append(("note", .text("A's flush to B's coordinator and its updated drawing")))
        }
        report.add("e2e.\(transport).p50", latencies.median * 1e3, "ms", details)
        report.add(
            "e2e.\(transport).p99", latencies.percentile(99) * 1e3, "ms",
            [("samples", .number(Double(latencies.count)))])
    }

    /// A gets the drawing through its coordinator (one transaction); B gets A's events directly.
    static func prepare(strokes: Int, pathA: String, pathB: String) throws {
        let a = try Replica(
            directory: pathA, configuration: ReplicaConfiguration(peerID: PeerID(0xA000_0000_0000_0001)))
        let coordinator = DrawingSyncCoordinator(replica: a, drawingID: drawingID)
        var sample = SampleDrawing(seed: 0xE2E, peer: "bencha")
        let groups = sample.groups(strokes)
        coordinator.edit(now: 0) { drawing in
            for group in groups { drawing.insert(group) }
        }
        try coordinator.flush()
        coordinator.close()
        let b = try Replica(
            directory: pathB, configuration: ReplicaConfiguration(peerID: PeerID(0xB000_0000_0000_0002)))
        let delta = try a.changes(
            collection: DrawingSyncCoordinator.collection, documentID: nil, since: DocumentVersions())
        guard case .applied = try b.apply(delta) else { throw BenchError.setup("B refused the drawing") }
    }

    static func session(_ adapter: ReplicaSyncAdapter, name: String) -> SyncSessionConfiguration {
        SyncSessionConfiguration(
            databaseID: "bench", peerID: adapter.replica.peerID.rawValue, displayName: name,
            token: "bench-token",
            encrypts: false, subscriptions: adapter.subscriptions)
    }

    /// Peer B's thread: listens, and on every remote change (in its coordinator's drawing by
    /// then) notes when each key arrived, waking A's loop.
    static func runPeerB(path: String, endpoint: SocketEndpoint, link: PeerLink, wake: PollEventLoop) {
        do {
            let loop = try PollEventLoop(clock: .system)
            let replica = try Replica(directory: path)
            try replica.addSubscription(ReplicaSyncAdapter.drawings)
            let adapter = ReplicaSyncAdapter(replica: replica)
            let node = SyncNode(
                loop: loop, transport: SocketTransport(loop: loop), replica: adapter,
                configuration: session(adapter, name: "bench peer B"))
            adapter.forwardLocalCommits(to: node)
            // The coordinator puts each change into its drawing before it calls back.
            let coordinator = DrawingSyncCoordinator(replica: replica, drawingID: drawingID)
            coordinator.onRemoteChange = { change in
                link.arrived(change.groups.keys.map(\.rawValue), at: BenchClock.now())
                wake.execute {}
            }
            link.listening(on: try node.listen(on: endpoint), loop: loop)
            loop.run()
            node.shutdown()
            loop.run(until: { false }, timeout: .milliseconds(200))
            coordinator.close()
            link.finish()
        } catch {
            link.fail("\(error)")
        }
    }
}

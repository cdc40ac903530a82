import EventRuntime
import FoundationEssentials
import Glibc
import TestSupport

/// The relay's capacity: for each client count N of the sweep, a fresh `drawtogether serve` in
/// a child process and N client sessions from this process's one event loop (`RelayLoad`), over
/// real TCP with real handshakes, encryption and subscriptions. N/10 drawings (at most 100), each
/// with one drawing client (10 % of the clients, `strokeRate` strokes a second) and the others
/// watching.
///
/// A `Setup` names the figures and says how its relays are started: one relay on its own
/// SQLite replica (`relay.*`), or two relays on one PostgreSQL (`relay.pg.*`, a fresh database
/// for each client count), whose `serve` gets `--postgres URL`; the clients are then split
/// between them round-robin, so a drawing's subscribers are on both.
struct RelayBench {
    struct Setup {
        var figurePrefix: String
        /// The fan-out p99 a client count is judged by (the target, in ms).
        var fanoutTarget: Double
        /// One entry per relay: the extra arguments of its `serve`. Called once per client count.
        var relays: () throws -> [[String]]

        static var oneRelay: Setup { Setup(figurePrefix: "relay", fanoutTarget: 50) { [[]] } }

        /// Two relays on one database of `cluster`, a new database each time.
        static func twoRelays(on cluster: PostgresCluster) -> Setup {
            Setup(figurePrefix: "relay.pg", fanoutTarget: 100) {
                let url = cluster.url(database: try cluster.createDatabase())
                return [["--postgres", url], ["--postgres", url]]
            }
        }
    }

    /// What one client count gave.
    struct Step {
        var clients: Int
        var connected: Int
        var drawings: Int
        var latencies: DurationSample
        var strokes: Int
        var incomplete: Int
        var relayCPUPerStroke: Double?
        var residentPerClient: Double?
        var failedHandshakes: Int
        var skippedStrokes: Int
        var drops: Int
        var lastDrop: String?
        var rampSeconds: Double
        var driverCPUShare: Double
        /// Client deltas per transaction of the relays' group commits, over the whole step.
        var commitBatch: Double?
    }

    static let strokeRate = 10.0
    static let maximumDrawings = 100

    let clientCounts: [Int]
    let measureSeconds: Double
    let setup: Setup
    let report: FigureReport

    func run() throws {
        let limit = DescriptorLimit.raiseToHardLimit()
        let needed = (clientCounts.max() ?? 0) + 64
        guard limit >= needed else {
            throw BenchError.setup(
                "the open-file limit is \(limit), and \(needed) are needed: raise the hard limit (ulimit -Hn)"
            )
        }
        var steps: [Step] = []
        for count in clientCounts {
            FigureReport.progress("relay: \(count) clients")
            let step = try measure(clients: count)
            steps.append(step)
            report.add(
                "\(setup.figurePrefix).sweep.fanout.p99", step.latencies.percentile(99), "ms",
                details(of: step))
            if step.connected < count { break }
        }
        guard let last = steps.last else { return }
        let prefix = setup.figurePrefix
        report.add(prefix + ".clients", Double(last.connected), "clients", details(of: last))
        report.add(
            prefix + ".fanout.p50", last.latencies.median, "ms",
            [
                ("clients", .number(Double(last.connected))),
                ("strokes", .number(Double(last.latencies.count))),
            ])
        report.add(
            prefix + ".fanout.p99", last.latencies.percentile(99), "ms",
            [
                ("clients", .number(Double(last.connected))),
                ("strokes", .number(Double(last.latencies.count))),
            ])
        report.add(
            prefix + ".cpu_per_stroke", last.relayCPUPerStroke ?? .nan, "us",
            [
                ("clients", .number(Double(last.connected))),
                ("note", .text("relay user+system CPU while clients drew, per stroke sent")),
            ])
        report.add(
            prefix + ".rss_per_client", last.residentPerClient ?? .nan, "KiB",
            [
                ("clients", .number(Double(last.connected))),
                ("note", .text("relay VmRSS with every client connected and idle, less before any")),
            ])
        report.add(
            prefix + ".commit_batch", last.commitBatch ?? .nan, "deltas",
            [
                ("clients", .number(Double(last.connected))),
                ("note", .text("client deltas per transaction of the relays' group commits")),
            ])
        let held = steps.filter {
            $0.connected == $0.clients && $0.latencies.percentile(99) <= setup.fanoutTarget
        }
        report.add(
            prefix + ".max_clients_p99_\(Int(setup.fanoutTarget))ms", Double(held.map(\.clients).max() ?? 0),
            "clients", [("tried", .text(steps.map { "\($0.clients)" }.joined(separator: ",")))])
    }

    private func details(of step: Step) -> [(key: String, value: Figure.Detail)] {
        var details: [(key: String, value: Figure.Detail)] = [
            ("clients", .number(Double(step.clients))), ("connected", .number(Double(step.connected))),
            ("drawings", .number(Double(step.drawings))), ("strokes", .number(Double(step.strokes))),
            ("p50_ms", .number(step.latencies.median)), ("ramp_s", .number(step.rampSeconds)),
            ("failed_handshakes", .number(Double(step.failedHandshakes))),
            ("driver_cpu", .number(step.driverCPUShare)),
        ]
        if let batch = step.commitBatch { details.append(("commit_batch", .number(batch))) }
        if step.incomplete > 0 { details.append(("incomplete", .number(Double(step.incomplete)))) }
        if step.skippedStrokes > 0 { details.append(("skipped", .number(Double(step.skippedStrokes)))) }
        if step.drops > 0 {
            details.append(("drops", .number(Double(step.drops))))
            details.append(("last_drop", .text(step.lastDrop ?? "")))
        }
        return details
    }

    private func measure(clients count: Int) throws -> Step {
        let stores = try TemporaryStores("relay")
        let relays = try setup.relays().enumerated().map { index, arguments in
            try RelayProcess(
                RelayProcess.Options(
                    token: RelayLoad.token, store: stores.path("relay-\(index)"), extraArguments: arguments),
                log: stores.path("relay-\(index).log"))
        }
        defer { relays.forEach { $0.stop() } }
        let load = try RelayLoad(relays: relays.map { .tcp(host: "127.0.0.1", port: $0.port) })
        load.idle(for: .milliseconds(300))
        let baseline = relays.compactMap { $0.residentKiB() }.reduce(0, +)

        let drawings = min(Self.maximumDrawings, max(1, count / 10))
        let rampStart = BenchClock.now()
        let rampLimit = 30 + count / 20
        let allConnected = load.connect(count: count, drawings: drawings, timeout: .seconds(Int64(rampLimit)))
        let rampSeconds = BenchClock.seconds(since: rampStart)
        if !allConnected {
            FigureReport.progress(
                "relay: only \(load.connectedCount) of \(count) clients connected in \(rampLimit) s; the last failure: "
                    + (load.lastFailure ?? "none"))
        }
        load.idle(for: .seconds(1))
        let connected = load.connectedCount
        let resident = relays.compactMap { $0.residentKiB() }.reduce(0, +)

        let cpuBefore = relays.compactMap { $0.cpuMicroseconds() }.reduce(0, +)
        let driverBefore = Self.ownCPUSeconds()
        let windowStart = BenchClock.now()
        load.draw(
            drawers: drawings, rate: Self.strokeRate, warmUp: .seconds(1),
            duration: .milliseconds(Int64(measureSeconds * 1000)), drain: .seconds(10))
        let window = BenchClock.seconds(since: windowStart)
        let cpuAfter = relays.compactMap { $0.cpuMicroseconds() }.reduce(0, +)
        let driverShare = (Self.ownCPUSeconds() - driverBefore) / window
        let strokes = load.timedStrokes
        let sent = load.sentStrokes
        var step = Step(
            clients: count, connected: connected, drawings: drawings, latencies: load.latencies,
            strokes: strokes,
            incomplete: load.incompleteStrokes,
            // The warm-up's strokes are in the window too: CPU is divided by every stroke sent in it.
            // Over the whole drawing phase (warm-up and drain too), per stroke sent in it.
            relayCPUPerStroke: sent > 0 ? (cpuAfter - cpuBefore) / Double(sent) : nil,
            residentPerClient: connected > 0 ? (resident - baseline) / Double(connected) : nil,
            failedHandshakes: load.failedHandshakes, skippedStrokes: load.skippedStrokes, drops: load.drops,
            lastDrop: load.lastDrop, rampSeconds: rampSeconds, driverCPUShare: driverShare,
            commitBatch: nil)
        load.shutdown()
        // A relay logs its group commit's totals when it stops.
        relays.forEach { $0.stop() }
        let commits = relays.compactMap { $0.commitStatistics() }
        let transactions = commits.map(\.transactions).reduce(0, +)
        let commitBatch =
            commits.count == relays.count && transactions > 0
            ? Double(commits.map(\.deltas).reduce(0, +)) / Double(transactions) : nil
        step.commitBatch = commitBatch
        return step
    }

    /// This process's user plus system CPU in seconds.
    static func ownCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
    }
}

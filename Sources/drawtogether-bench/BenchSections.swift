import DrawingSync
import TestSupport

/// Which figures each section measures, and running one in this process.
enum BenchSections {
    /// The child processes a section is split into (one per map scenario, for clean RSS figures).
    /// The drawing section runs at its scale (`--strokes`, 10,000 by default) and, unless
    /// `--strokes` or `--quick` chose one, again at `largeDrawing` strokes.
    static func scenarios(of section: BenchOptions.Section, options: BenchOptions) -> [String?] {
        switch section {
        case .replica: MapWorkload.Scenario.allCases.map(\.rawValue) + [CompactionBench.scenario]
        case .drawing:
            options.strokes == nil && !options.quick ? [nil, "strokes:\(largeDrawing)"] : [nil]
        case .live, .e2e, .relay: [nil]
        }
    }

    static let largeDrawing = 100_000

    static func runInProcess(
        _ section: BenchOptions.Section, scenario: String?, options: BenchOptions, report: FigureReport
    ) throws {
        // The sections that measure what a drawing's process does run with the heap that process
        // sets up before it opens a drawing (`OpenCommand`); a relay keeps malloc's defaults.
        if section == .replica || section == .live || section == .drawing { HeapRelease.configure() }
        switch section {
        case .replica where scenario == CompactionBench.scenario:
            try CompactionBench(report: report).run()
        case .replica:
            guard let name = scenario, let chosen = MapWorkload.Scenario(rawValue: name) else {
                throw BenchError.setup(
                    "--worker replica needs a scenario: disjoint, overlap, overwrite, delete-half")
            }
            try MapWorkload(keys: options.keyCount, handoff: options.handoff, report: report).run(chosen)
        case .live:
            try LiveSyncBench(updates: options.keyCount, report: report).run()
        case .drawing:
            if let scenario, let prefix = ["cold-open:", "cold-open-whole:"].first(where: scenario.hasPrefix)
            {
                // cold-open:SUFFIX:PATH (a suffix never holds a colon; a path may); -whole: not staged.
                let rest = scenario.dropFirst(prefix.count)
                let suffix = rest.prefix { $0 != ":" }
                try DrawingBench.coldOpen(
                    path: String(rest.dropFirst(suffix.count + 1)), suffix: String(suffix),
                    staged: prefix == "cold-open:", report: report)
            } else if let scenario, scenario.hasPrefix("strokes:"),
                let count = Int(scenario.dropFirst("strokes:".count))
            {
                try DrawingBench(
                    strokes: count, repetitions: options.quick ? 5 : 20, report: report,
                    suffix: ".\(count / 1_000)k"
                ).run()
            } else {
                try DrawingBench(
                    strokes: options.strokeCount, repetitions: options.quick ? 5 : 20, report: report
                ).run()
            }
        case .relay:
            try RelayBench(
                clientCounts: options.relayClientCounts, measureSeconds: options.relaySeconds,
                setup: .oneRelay, report: report
            ).run()
            // Two relays on one PostgreSQL: a throwaway cluster, as the tests start one.
            guard PostgresCluster.serverIsInstalled else {
                FigureReport.progress(
                    "no relay.pg figures: no PostgreSQL server in /usr/lib/postgresql (apt-get install postgresql)"
                )
                return
            }
            // `fsync` on: a commit is measured as a real database makes it durable.
            let cluster = try PostgresCluster.makePrivate(fsync: true)
            defer { cluster.stop() }
            try RelayBench(
                clientCounts: options.relayClientCounts, measureSeconds: options.relaySeconds,
                setup: .twoRelays(on: cluster), report: report
            ).run()
        case .e2e:
            try EndToEndBench(
                strokes: options.strokeCount, samples: options.sampleCount,
                budgetSeconds: options.endToEndBudgetSeconds,
                report: report
            ).run()
        }
    }
}

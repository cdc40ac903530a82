/// Which figures each section measures, and running one in this process.
enum BenchSections {
    /// The child processes a section is split into (one per map scenario, for clean RSS figures).
    static func scenarios(of section: BenchOptions.Section) -> [String?] {
        switch section {
        case .replica: MapWorkload.Scenario.allCases.map(\.rawValue)
        case .live, .drawing, .e2e: [nil]
        }
    }

    static func runInProcess(
        _ section: BenchOptions.Section, scenario: String?, options: BenchOptions, report: FigureReport
    ) throws {
        switch section {
        case .replica:
            guard let name = scenario, let chosen = MapWorkload.Scenario(rawValue: name) else {
                throw BenchError.setup(
                    "--worker replica needs a scenario: disjoint, overlap, overwrite, delete-half")
            }
            try MapWorkload(keys: options.keyCount, handoff: options.handoff, report: report).run(chosen)
        case .live:
            try LiveSyncBench(updates: options.keyCount, report: report).run()
        case .drawing:
            if let scenario, scenario.hasPrefix("cold-open:") {
                try DrawingBench.coldOpen(
                    path: String(scenario.dropFirst("cold-open:".count)), report: report)
            } else {
                try DrawingBench(
                    strokes: options.strokeCount, repetitions: options.quick ? 5 : 20, report: report
                ).run()
            }
        case .e2e:
            try EndToEndBench(
                strokes: options.strokeCount, samples: options.sampleCount,
                budgetSeconds: options.endToEndBudgetSeconds,
                report: report
            ).run()
        }
    }
}

// drawtogether-bench: measures the replica, live sync, end-to-end sync, flush, render, open and
// the relay's capacity.
// See PERFORMANCE.md for the figures of a release run and what each one means.
import Glibc

let options: BenchOptions
do {
    options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FigureReport.progress("\(error)")
    exit(2)
}
if options.help {
    FigureReport.write(BenchOptions.usage, to: STDOUT_FILENO)
    exit(0)
}

let report = FigureReport()
do {
    if let worker = options.worker {
        try BenchSections.runInProcess(
            worker.section, scenario: worker.scenario, options: options, report: report)
    } else {
        let start = BenchClock.now()
        #if DEBUG
            FigureReport.progress(
                "this is a debug build: run `swift run -c release drawtogether-bench` for real figures")
        #endif
        let handoff = try TemporaryStores("handoff")
        var sections = options.sections
        // `swift run drawtogether-bench` builds the bench alone: the full run then goes without
        // the relay's figures, saying why; `--only relay` insists.
        if sections.contains(.relay), sections != [.relay], !RelayProcess.isBuilt {
            FigureReport.progress(
                "no relay figures: \(RelayProcess.binary) is not built (swift build -c release builds it)")
            sections.removeAll { $0 == .relay }
        }
        for section in sections {
            for scenario in BenchSections.scenarios(of: section, options: options) {
                FigureReport.progress("running \(section.rawValue)\(scenario.map { " " + $0 } ?? "")")
                try WorkerProcess.run(
                    section: section, scenario: scenario,
                    arguments: options.scaleArguments + ["--handoff", handoff.root],
                    report: report)
            }
        }
        report.add(
            "bench.total", BenchClock.seconds(since: start), "s", [("quick", .number(options.quick ? 1 : 0))])
        report.printTable()
    }
} catch {
    FigureReport.progress("\(error)")
    exit(1)
}

import FoundationEssentials
import Glibc
import JSONText
import TestSupport

/// Runs one section in a child process of this same executable (`--worker SECTION [SCENARIO]`)
/// and passes its figures on as they arrive.
enum WorkerProcess {
    static func run(
        section: BenchOptions.Section, scenario: String?, arguments: [String], report: FigureReport
    ) throws {
        var environment = ProcessInfo.processInfo.environment
        environment[spawnedAtVariable] = String(BenchClock.now())
        let process = try SpawnedProcess(
            "/proc/self/exe", ["--worker", section.rawValue] + (scenario.map { [$0] } ?? []) + arguments,
            environment: environment, standardInput: .inherit, standardOutput: .pipe)
        var pending: [UInt8] = []
        SpawnedProcess.read([process.standardOutput ?? -1]) { _, chunk in
            pending += chunk
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if let figure = figure(from: line) { report.add(figure) }
            }
            return true
        }
        let status = process.wait()
        guard status == 0 else {
            let what = section.rawValue + (scenario.map { " " + $0 } ?? "")
            throw BenchError.setup("the \(what) worker exited with status \(status)")
        }
    }

    /// The variable that tells a worker when its parent spawned it (`BenchClock.now()`, which
    /// is CLOCK_MONOTONIC and so the same clock in both processes).
    static let spawnedAtVariable = "DTBENCH_SPAWNED_AT_NS"

    /// In a worker: the instant its parent spawned it, so a figure "from process start" counts
    /// the exec, the dynamic loading and the runtime's start too; nil outside a worker.
    static var spawnedAt: UInt64? {
        getenv(spawnedAtVariable).flatMap { UInt64(String(cString: $0)) }
    }

    /// A figure from one JSON line; nil for anything else the child printed.
    static func figure(from line: String) -> Figure? {
        guard
            let node = try? JSONReader.parse(line, limits: .init(maximumBytes: 1 << 20, maximumDepth: 4)),
            case .object(let members) = node.value
        else { return nil }
        var fields: [String: JSONNode.Value] = [:]
        for member in members { fields[member.key] = member.value.value }
        guard case .string(let name)? = fields["figure"], case .string(let unit)? = fields["unit"] else {
            return nil
        }
        var value = Double.nan
        if case .number(let literal)? = fields["value"] { value = Double(literal) ?? .nan }
        var details: [(key: String, value: Figure.Detail)] = []
        for key in fields.keys.sorted(by: { ($0 == "note" ? 1 : 0, $0) < ($1 == "note" ? 1 : 0, $1) })
        where !["figure", "value", "unit"].contains(key) {
            switch fields[key] {
            case .string(let text)?: details.append((key, .text(text)))
            case .number(let literal)?: Double(literal).map { details.append((key, .number($0))) }
            default: break
            }
        }
        return Figure(name, value, unit, details)
    }
}

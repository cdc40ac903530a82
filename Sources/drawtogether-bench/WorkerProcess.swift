import Foundation

/// Runs one section in a child process of this same executable (`--worker SECTION [SCENARIO]`)
/// and passes its figures on as they arrive.
enum WorkerProcess {
    static func run(
        section: BenchOptions.Section, scenario: String?, arguments: [String], report: FigureReport
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = ["--worker", section.rawValue] + (scenario.map { [$0] } ?? []) + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var pending = Data()
        let reader = output.fileHandleForReading
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[pending.startIndex..<newline]
                pending = Data(pending[(newline + 1)...])
                if let figure = figure(from: Data(line)) { report.add(figure) }
            }
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let what = section.rawValue + (scenario.map { " " + $0 } ?? "")
            throw BenchError.setup("the \(what) worker exited with status \(process.terminationStatus)")
        }
    }

    /// A figure from one JSON line; nil for anything else the child printed.
    static func figure(from line: Data) -> Figure? {
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
            let name = object["figure"] as? String, let unit = object["unit"] as? String
        else { return nil }
        let value = (object["value"] as? NSNumber)?.doubleValue ?? .nan
        var details: [(key: String, value: Figure.Detail)] = []
        for key in object.keys.sorted(by: { ($0 == "note" ? 1 : 0, $0) < ($1 == "note" ? 1 : 0, $1) })
        where !["figure", "value", "unit"].contains(key) {
            if let text = object[key] as? String {
                details.append((key, .text(text)))
            } else if let number = object[key] as? NSNumber {
                details.append((key, .number(number.doubleValue)))
            }
        }
        return Figure(name, value, unit, details)
    }
}

import Glibc

/// Prints each figure as a JSON line the moment it is measured (so a long run shows progress and
/// a script can read them), and a readable table of all of them at the end.
final class FigureReport {
    private(set) var figures: [Figure] = []

    func add(_ figure: Figure) {
        figures.append(figure)
        Self.write(figure.jsonLine, to: STDOUT_FILENO)
    }

    func add(
        _ name: String, _ value: Double, _ unit: String, _ details: [(key: String, value: Figure.Detail)] = []
    ) {
        add(Figure(name, value, unit, details))
    }

    /// A progress line on standard error (standard output stays JSON, then the table).
    static func progress(_ text: String) {
        write("drawtogether-bench: \(text)", to: STDERR_FILENO)
    }

    func printTable() {
        let nameWidth = max(6, figures.map(\.name.count).max() ?? 0)
        let valueWidth = max(5, figures.map(\.displayValue.count).max() ?? 0)
        func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
            let fill = String(repeating: " ", count: max(0, width - text.count))
            return right ? fill + text : text + fill
        }
        Self.write("", to: STDOUT_FILENO)
        Self.write(
            pad("figure", nameWidth) + "  " + pad("value", valueWidth, right: true) + "  unit   notes",
            to: STDOUT_FILENO)
        Self.write(String(repeating: "-", count: nameWidth + valueWidth + 20), to: STDOUT_FILENO)
        for figure in figures {
            Self.write(
                pad(figure.name, nameWidth) + "  " + pad(figure.displayValue, valueWidth, right: true) + "  "
                    + pad(figure.unit, 5) + "  " + figure.noteText, to: STDOUT_FILENO)
        }
    }

    /// One line straight to a file descriptor: unbuffered, so lines arrive as they are measured
    /// even through a pipe, and never interleave with a child's.
    static func write(_ line: String, to descriptor: Int32) {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes {
                Glibc.write(descriptor, $0.baseAddress, $0.count)
            }
            guard result > 0 else { return }
            written += result
        }
    }
}

import StrokeKit

/// Fitting text into a number of terminal columns, measured as `CellGrid.put` lays it out (a
/// wide character takes two, a combining mark none).
extension String {
    /// The text cut to at most `width` columns, ending in `ellipsis` when anything was cut. A wide
    /// character is never split: when only half of it would fit, the text stops one column short.
    func truncated(to width: Int, ellipsis: Unicode.Scalar) -> String {
        guard terminalColumns > width else { return self }
        guard width > 0 else { return "" }
        let room = width - ellipsis.terminalColumns
        var scalars = String.UnicodeScalarView()
        var used = 0
        for scalar in unicodeScalars {
            let columns = scalar.terminalColumns
            guard used + columns <= room else { break }
            scalars.append(scalar)
            used += columns
        }
        scalars.append(ellipsis)
        return String(scalars)
    }

    /// Greedy word wrap to `width` cells; a word longer than a line is cut with the ellipsis.
    func wrapped(to width: Int, ellipsis: Unicode.Scalar) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in split(separator: " ").map(String.init) {
            let word = word.truncated(to: width, ellipsis: ellipsis)
            if line.isEmpty {
                line = word
            } else if line.terminalColumns + 1 + word.terminalColumns <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

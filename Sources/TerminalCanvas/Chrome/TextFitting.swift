/// Fitting text into a number of cells (one Unicode scalar is one cell, as in `CellGrid`).
extension String {
    var cellWidth: Int { unicodeScalars.count }

    /// The text cut to `width` cells, its last cell replaced by `ellipsis` when anything was cut.
    func truncated(to width: Int, ellipsis: Unicode.Scalar) -> String {
        guard cellWidth > width else { return self }
        guard width > 0 else { return "" }
        var scalars = String.UnicodeScalarView(unicodeScalars.prefix(width - 1))
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
            } else if line.cellWidth + 1 + word.cellWidth <= width {
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

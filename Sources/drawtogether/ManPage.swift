/// drawtogether(1), written in roff from the help texts: the one source of `--help`, the
/// canvas's help overlay (`keys.txt`) and this page, so the three cannot disagree.
///
/// `usage.txt` gives NAME, SYNOPSIS, OPTIONS and DESCRIPTION; each subcommand's file a part of
/// COMMANDS; `keys.txt` KEYS; `environment.txt` ENVIRONMENT. In those texts a line at the left
/// margin is prose (the formatter fills it) and an indented line keeps its layout.
struct ManPage {
    let roff: String

    /// `helpText` reads a help file by name (`usage`, `keys`, `export`, ...).
    init(version: String, helpText: (String) throws -> String) throws {
        let usage = try helpText("usage").split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        let title = usage.first ?? "drawtogether"
        let summary = title.firstRange(of: " — ").map { String(title[$0.upperBound...]) } ?? title
        var page = [
            #".TH DRAWTOGETHER 1 "" "drawtogether \#(version)" "User Commands""#,
            ".SH NAME",
            "drawtogether \\- " + Self.escaped(summary),
            ".SH SYNOPSIS",
            ".nf",
        ]
        let (lines, options, closing) = Self.sections(ofUsage: usage)
        let forms = Self.columns(lines)
        page += forms.map { Self.escaped($0.form) }
        page += [".fi", ".SH DESCRIPTION"]
        page += forms.compactMap { form in
            form.summary.map { ".TP\n" + Self.bold(form.form) + "\n" + Self.escaped($0) }
        }
        page += Self.blocks(closing.joined(separator: "\n"))
        page.append(".SH OPTIONS")
        page += options.map { line in
            ".TP\n" + Self.bold(Self.firstColumn(line)) + "\n" + Self.escaped(Self.secondColumn(line) ?? "")
        }
        page.append(".SH COMMANDS")
        for subcommand in Subcommand.allCases {
            page.append(".SS " + subcommand.rawValue)
            page += Self.blocks(try helpText(subcommand.rawValue))
        }
        page.append(".SH KEYS")
        page += Self.blocks(try helpText("keys"))
        page.append(".SH ENVIRONMENT")
        page += Self.definitions(try helpText("environment"))
        page += [
            ".SH EXIT STATUS",
            "0 when the command did what it was asked, 1 when it failed (doctor: when a check found a problem),",
            "2 when the command line or the settings were wrong.",
            ".SH SEE ALSO",
            "\\fBdrawtogether doctor\\fR checks the terminal, the store and the network;",
            "\\fBdrawtogether completions\\fR prints shell completion scripts.",
        ]
        roff = page.joined(separator: "\n") + "\n"
    }

    /// The usage text cut into its `usage:` lines, its `options` lines and the prose after them.
    private static func sections(ofUsage lines: [String]) -> (
        forms: [String], options: [String], closing: [String]
    ) {
        var forms: [String] = []
        var options: [String] = []
        var closing: [String] = []
        var section = ""
        for line in lines.dropFirst() {
            if line.hasPrefix("usage:") || line.hasPrefix("options") {
                section = line
                continue
            }
            if line.isEmpty {
                if !closing.isEmpty { closing.append(line) }
                if !section.isEmpty { section = "" }
                continue
            }
            if section.hasPrefix("usage:"), line.hasPrefix("  ") {
                forms.append(line.trimmingLeadingSpaces)
            } else if section.hasPrefix("options"), line.hasPrefix("  ") {
                // A deeper-indented line continues the option above's summary.
                if !line.trimmingLeadingSpaces.hasPrefix("-"), let last = options.popLast() {
                    options.append(last + " " + line.trimmingLeadingSpaces)
                } else {
                    options.append(line.trimmingLeadingSpaces)
                }
            } else {
                section = ""
                closing.append(line)
            }
        }
        return (forms, options, closing)
    }

    /// The usage lines split into the form and its summary. The summaries start in one column,
    /// which a long form reaches with a single space before it.
    private static func columns(_ lines: [String]) -> [(form: String, summary: String?)] {
        var starts: [Int: Int] = [:]
        for line in lines {
            if let gap = line.firstRange(of: "  ") {
                let start = line.distance(
                    from: line.startIndex,
                    to: line[gap.upperBound...].firstIndex { $0 != " " } ?? line.endIndex)
                starts[start, default: 0] += 1
            }
        }
        guard let column = starts.max(by: { $0.value < $1.value })?.key else {
            return lines.map { ($0, nil) }
        }
        return lines.map { line in
            guard line.count > column, line[line.index(line.startIndex, offsetBy: column - 1)] == " " else {
                return (line, nil)
            }
            let split = line.index(line.startIndex, offsetBy: column)
            return (String(line[..<split]).trimmingTrailingSpaces, String(line[split...]))
        }
    }

    /// What a two-column help line says before its gap of two or more spaces.
    private static func firstColumn(_ line: String) -> String {
        guard let gap = line.firstRange(of: "  ") else { return line }
        return String(line[..<gap.lowerBound])
    }

    private static func secondColumn(_ line: String) -> String? {
        guard let gap = line.firstRange(of: "  ") else { return nil }
        return String(line[gap.upperBound...]).trimmingLeadingSpaces
    }

    /// `NAME  text` lines, continued by indented lines, as tagged paragraphs.
    private static func definitions(_ text: String) -> [String] {
        var entries: [(name: String, text: String)] = []
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix(" "), !entries.isEmpty {
                entries[entries.count - 1].text += " " + line.trimmingLeadingSpaces
            } else {
                entries.append((firstColumn(line), secondColumn(line) ?? ""))
            }
        }
        return entries.map { ".TP\n" + bold($0.name) + "\n" + escaped($0.text) }
    }

    /// A help text as paragraphs: prose lines filled, indented lines kept as they are.
    static func blocks(_ text: String) -> [String] {
        var output: [String] = []
        var keepingLayout = false
        var startsParagraph = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.isEmpty {
                if keepingLayout { output.append(".fi") }
                keepingLayout = false
                startsParagraph = true
                continue
            }
            let indented = line.hasPrefix(" ")
            if indented != keepingLayout {
                output.append(indented ? ".nf" : ".fi")
                keepingLayout = indented
            }
            if startsParagraph {
                output.insert(".PP", at: keepingLayout ? output.count - 1 : output.count)
                startsParagraph = false
            }
            output.append(line.hasPrefix("usage: ") ? bold(String(line.dropFirst(7))) : escaped(line))
        }
        if keepingLayout { output.append(".fi") }
        return output
    }

    private static func bold(_ text: String) -> String {
        "\\fB" + escaped(text) + "\\fR"
    }

    /// Text that roff prints as written: backslashes and hyphens escaped, a leading `.` or `'`
    /// guarded, and anything outside ASCII named as a glyph.
    static func escaped(_ text: String) -> String {
        var result = text.hasPrefix(".") || text.hasPrefix("'") ? "\\&" : ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case "\u{2014}": result += "\\(em"
            case "\u{2013}": result += "\\(en"
            default:
                if scalar.isASCII {
                    result.unicodeScalars.append(scalar)
                } else {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                }
            }
        }
        return result
    }
}

extension String {
    fileprivate var trimmingLeadingSpaces: String {
        String(drop { $0 == " " })
    }

    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}

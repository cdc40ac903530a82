/// What the shells complete, read from the tables the parser itself uses, so a completion script
/// can never offer a flag the parser refuses or miss one it takes.
///
/// Names come from `Subcommand`, `FlagScan.specs` (with each flag's owner and whether it takes a
/// value) and `ExportFormat`; what a value is (a directory, a file) from the placeholder the
/// parser's own messages use; the one-line summaries from the help texts (`usage.txt` for the
/// common options, the first sentence of each subcommand's file).
struct CompletionModel: Equatable {
    /// What a flag's value or a positional word completes to.
    enum Value: Equatable {
        case none
        /// Free text (an id, a token, an address): nothing to offer.
        case text
        case directory
        case file
        case choices([String])
        /// The drawings in the replica (`drawtogether completions drawings`).
        case drawing
    }

    struct Option: Equatable {
        var name: String
        var value: Value
        /// Nil for the options every subcommand takes.
        var owner: Subcommand?
        var summary: String?
        var isRepeatable: Bool
    }

    struct Command: Equatable {
        var name: String
        var summary: String?
        /// What the first word after the subcommand completes to.
        var argument: Value
    }

    var commands: [Command]
    var options: [Option]

    /// The flags that forward to `completions drawings`, so it reads the replica the command
    /// line being completed names.
    static let storeSelectingFlags = ["--store", "--database-id", "--env-file"]

    /// Builds the model; `helpText` reads a help file by name (`usage`, `export`, ...).
    init(helpText: (String) throws -> String) rethrows {
        let optionSummaries = Self.optionSummaries(try helpText("usage"))
        commands = try Subcommand.allCases.map { subcommand in
            Command(
                name: subcommand.rawValue,
                summary: Self.firstSentence(ofHelp: try helpText(subcommand.rawValue)),
                argument: Self.argument(of: subcommand))
        }
        options = FlagScan.specs.keys.sorted().map { name in
            let spec = FlagScan.specs[name]!
            return Option(
                name: name, value: spec.takesValue ? Self.value(ofFlag: name) : .none, owner: spec.owner,
                summary: optionSummaries[name], isRepeatable: name == "--peer" || name == "--server")
        }
    }

    /// The options a subcommand takes (nil: before any subcommand, where `open` is implied).
    func options(for subcommand: Subcommand?) -> [Option] {
        options.filter { $0.owner == nil || $0.owner == (subcommand ?? .open) }
    }

    /// The options that take a value, which a scan of the words must step over.
    var optionsTakingValues: [Option] {
        options.filter { $0.value != .none }
    }

    private static func argument(of subcommand: Subcommand) -> Value {
        switch subcommand {
        case .open, .export: return .drawing
        case .completions: return .choices(CompletionRequest.allCases.map(\.rawValue))
        case .list, .query, .sync, .serve, .doctor, .manpage, .token: return .none
        }
    }

    private static func value(ofFlag name: String) -> Value {
        if name == "--format" { return .choices(ExportFormat.allCases.map(\.rawValue)) }
        if name == "--glyphs" { return .choices(ExportGlyphs.allCases.map(\.rawValue)) }
        switch CommandLineError.placeholder(for: name) {
        case "DIR": return .directory
        case "FILE": return .file
        default: return .text
        }
    }

    /// `--flag [VALUE]   summary` lines of the usage text, by flag.
    static func optionSummaries(_ usage: String) -> [String: String] {
        var summaries: [String: String] = [:]
        var previous: [String] = []
        for line in usage.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("  ") else {
                previous = []
                continue
            }
            let text = line.drop { $0 == " " }
            // A deeper-indented line that is no flag continues the summary above it.
            guard text.hasPrefix("-") else {
                for name in previous { summaries[name]? += " " + text }
                continue
            }
            previous = []
            guard let gap = text.firstRange(of: "  ") else { continue }
            // `-h, --help` names two flags; `--store DIR` one, with its value.
            let summary = String(text[gap.upperBound...].drop { $0 == " " })
            for name in text[..<gap.lowerBound].split(separator: ",") {
                let flag = String(name.drop { $0 == " " }.prefix { $0 != " " })
                summaries[flag] = summary
                previous.append(flag)
            }
        }
        return summaries
    }

    /// The first sentence after a help file's `usage:` line.
    static func firstSentence(ofHelp text: String) -> String? {
        let body = text.split(separator: "\n", omittingEmptySubsequences: false).drop {
            $0.hasPrefix("usage:") || $0.isEmpty
        }
        let paragraph = body.prefix { !$0.isEmpty && !$0.hasPrefix(" ") }.joined(separator: " ")
        guard !paragraph.isEmpty else { return nil }
        let end = paragraph.firstRange(of: ". ")?.lowerBound ?? paragraph.endIndex
        var sentence = String(paragraph[..<end])
        if sentence.hasSuffix(".") { sentence.removeLast() }
        if sentence.hasSuffix(":") { sentence.removeLast() }
        return sentence
    }
}

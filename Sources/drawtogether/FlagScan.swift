/// The command line split once into flags (with their values) and positional words.
///
/// Knowing every flag up front is what lets flags stand anywhere, lets `--help` win over missing
/// arguments, and turns a typo into "unknown option" rather than a drawing name.
struct FlagScan {
    struct Spec {
        var takesValue: Bool
        /// The subcommand the flag belongs to; nil for the common flags.
        var owner: Subcommand?
    }

    static let specs: [String: Spec] = [
        "--store": Spec(takesValue: true), "--database-id": Spec(takesValue: true),
        "--token": Spec(takesValue: true), "--token-file": Spec(takesValue: true),
        "--listen": Spec(takesValue: true),
        "--peer": Spec(takesValue: true), "--server": Spec(takesValue: true),
        "--no-discovery": Spec(takesValue: false), "--env-file": Spec(takesValue: true),
        "--help": Spec(takesValue: false), "-h": Spec(takesValue: false),
        "--version": Spec(takesValue: false),
        "--format": Spec(takesValue: true, owner: .export), "-o": Spec(takesValue: true, owner: .export),
        "--output": Spec(takesValue: true, owner: .export), "--args": Spec(takesValue: true, owner: .query),
        "--once": Spec(takesValue: false, owner: .sync), "--name": Spec(takesValue: true, owner: .open),
        "--theme": Spec(takesValue: true, owner: .export), "--glyphs": Spec(takesValue: true, owner: .export),
        "--cursor-colour": Spec(takesValue: true, owner: .open),
    ]

    /// The words that are not flags or flag values, in order.
    private(set) var positionals: [String] = []
    /// Every flag given, in order, with its value (nil for switches).
    private var flags: [(name: String, value: String?)] = []

    init(_ arguments: [String]) throws(CommandLineError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                positionals.append(contentsOf: remaining)
                return
            }
            guard argument.hasPrefix("-"), argument.count > 1 else {
                positionals.append(argument)
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let spec = Self.specs[name] else {
                throw .unknownFlag(
                    name, suggestion: Self.specs.keys.sorted().first { Self.isCloseMatch(name, $0) })
            }
            if !spec.takesValue {
                if let inlineValue { throw .unexpectedValue(flag: name, value: inlineValue) }
                flags.append((name, nil))
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if let next = remaining.first, !Self.isKnownFlag(next) {
                value = next
                remaining = remaining.dropFirst()
            } else {
                throw .missingValue(flag: name)
            }
            guard !value.isEmpty else { throw .emptyValue(flag: name) }
            flags.append((name, value))
        }
    }

    func has(_ name: String) -> Bool {
        flags.contains { $0.name == name }
    }

    /// The value of a flag; when given twice the last one wins, as in most command-line tools.
    func value(_ name: String) -> String? {
        flags.last { $0.name == name }?.value
    }

    /// Every value of a repeatable flag, in order.
    func values(_ name: String) -> [String] {
        flags.filter { $0.name == name }.compactMap(\.value)
    }

    /// Whether any flag that only one subcommand takes was given.
    var hasSubcommandFlags: Bool {
        flags.contains { Self.specs[$0.name]?.owner != nil }
    }

    func rejectFlags(notBelongingTo subcommand: Subcommand) throws(CommandLineError) {
        for flag in flags {
            if let owner = Self.specs[flag.name]?.owner, owner != subcommand {
                throw .optionNotForSubcommand(flag: flag.name, belongsTo: owner, used: subcommand)
            }
        }
    }

    private static func isKnownFlag(_ argument: String) -> Bool {
        let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
        return specs[name] != nil
    }

    /// At most two single-character edits apart (one for short names), a swap of two neighbours
    /// counting as one edit: close enough to be a typo worth suggesting. Words under three
    /// characters get no suggestion; too many are close.
    static func isCloseMatch(_ typed: String, _ known: String) -> Bool {
        let typed = Array(typed.lowercased())
        let known = Array(known)
        let limit = known.count <= 4 ? 1 : 2
        guard typed.count >= 3, abs(typed.count - known.count) <= limit else { return false }
        // distance[i][j]: edits from the first i typed characters to the first j known ones.
        var distance = [[Int]](repeating: [Int](repeating: 0, count: known.count + 1), count: typed.count + 1)
        for i in 0...typed.count { distance[i][0] = i }
        for j in 0...known.count { distance[0][j] = j }
        for i in 1...typed.count {
            for j in 1...known.count {
                let same = typed[i - 1] == known[j - 1]
                distance[i][j] = min(
                    distance[i - 1][j] + 1, distance[i][j - 1] + 1, distance[i - 1][j - 1] + (same ? 0 : 1))
                if i > 1, j > 1, typed[i - 1] == known[j - 2], typed[i - 2] == known[j - 1] {
                    distance[i][j] = min(distance[i][j], distance[i - 2][j - 2] + 1)
                }
            }
        }
        return distance[typed.count][known.count] <= limit
    }
}

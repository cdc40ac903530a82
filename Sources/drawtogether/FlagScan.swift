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
        "--token": Spec(takesValue: true), "--listen": Spec(takesValue: true),
        "--peer": Spec(takesValue: true), "--server": Spec(takesValue: true),
        "--no-discovery": Spec(takesValue: false), "--env-file": Spec(takesValue: true),
        "--help": Spec(takesValue: false), "-h": Spec(takesValue: false),
        "--version": Spec(takesValue: false),
        "--format": Spec(takesValue: true, owner: .export), "-o": Spec(takesValue: true, owner: .export),
        "--output": Spec(takesValue: true, owner: .export), "--args": Spec(takesValue: true, owner: .query),
        "--once": Spec(takesValue: false, owner: .sync),
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

    /// At most two single-character edits apart (one for short names): close enough to be a
    /// typo worth suggesting. Words under three characters get no suggestion; too many are close.
    static func isCloseMatch(_ typed: String, _ known: String) -> Bool {
        let typed = Array(typed.lowercased())
        let known = Array(known)
        let limit = known.count <= 4 ? 1 : 2
        guard typed.count >= 3, abs(typed.count - known.count) <= limit else { return false }
        var previous = Array(0...known.count)
        for (i, typedCharacter) in typed.enumerated() {
            var current = [i + 1]
            for (j, knownCharacter) in known.enumerated() {
                let substitution = previous[j] + (typedCharacter == knownCharacter ? 0 : 1)
                current.append(min(previous[j + 1] + 1, current[j] + 1, substitution))
            }
            previous = current
        }
        return previous[known.count] <= limit
    }
}

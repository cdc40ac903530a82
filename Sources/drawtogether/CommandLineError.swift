/// Why a command line could not be understood. `description` is one line that says what was wrong
/// and what to do; main prints it after `drawtogether: ` and exits with status 2.
enum CommandLineError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownFlag(String, suggestion: String?)
    case missingValue(flag: String)
    /// A flag that takes no value was given one: `--once=yes`.
    case unexpectedValue(flag: String, value: String)
    case emptyValue(flag: String)
    case badHostPort(flag: String, value: String, problem: HostPort.Problem)
    case badFormat(String)
    case badTheme(String)
    case badGlyphs(String)
    /// `drawtogether completions tcsh`.
    case badCompletionRequest(String)
    case unknownSubcommand(String, suggestion: Subcommand?)
    case unexpectedArgument(String, subcommand: Subcommand)
    /// A positional argument the subcommand needs, such as `DRAWING`.
    case missingArgument(String, subcommand: Subcommand)
    /// A flag the subcommand needs, such as `--format`.
    case missingOption(String, subcommand: Subcommand)
    /// A flag that belongs to another subcommand: `drawtogether list --once`.
    case optionNotForSubcommand(flag: String, belongsTo: Subcommand, used: Subcommand)

    var description: String {
        switch self {
        case .unknownFlag(let flag, let suggestion):
            let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
            return "unknown option '\(flag)'\(hint) (see 'drawtogether --help')"
        case .missingValue(let flag):
            return "\(flag) needs a value, e.g. '\(flag) \(Self.placeholder(for: flag))'"
        case .unexpectedValue(let flag, let value):
            return "\(flag) takes no value, but was given '\(value)'; write just '\(flag)'"
        case .emptyValue(let flag):
            return "\(flag) was given an empty value; write '\(flag) \(Self.placeholder(for: flag))'"
        case .badHostPort(let flag, let value, let problem):
            return "\(flag) '\(value)' is not a valid address: \(problem)"
        case .badTheme(let theme):
            return "unknown export theme '\(theme)'; use dark (the default) or light"
        case .badGlyphs(let glyphs):
            return "unknown export glyphs '\(glyphs)'; use block (the default) or braille"
        case .badFormat(let format):
            let formats = ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")
            return "unknown export format '\(format)'; use one of \(formats)"
        case .badCompletionRequest(let word):
            let names = CompletionRequest.allCases.map(\.rawValue).joined(separator: ", ")
            return "no completions for '\(word)'; use one of \(names)"
        case .unknownSubcommand(let word, let suggestion):
            let hint = suggestion.map { "did you mean '\($0.rawValue)'? " } ?? ""
            let names = Subcommand.allCases.map(\.rawValue).joined(separator: ", ")
            return "unknown subcommand '\(word)'; \(hint)the subcommands are \(names) "
                + "(to open a drawing by name: 'drawtogether open NAME')"
        case .unexpectedArgument(let argument, let subcommand):
            return "unexpected argument '\(argument)' for '\(subcommand.rawValue)'; "
                + "see 'drawtogether \(subcommand.rawValue) --help'"
        case .missingArgument(let argument, let subcommand):
            return "'drawtogether \(subcommand.rawValue)' needs \(argument); "
                + "see 'drawtogether \(subcommand.rawValue) --help'"
        case .missingOption(let option, let subcommand):
            return "'drawtogether \(subcommand.rawValue)' needs \(option)"
        case .optionNotForSubcommand(let flag, let owner, let used):
            return "\(flag) belongs to 'drawtogether \(owner.rawValue)', not 'drawtogether \(used.rawValue)'"
        }
    }

    /// The word that stands for a flag's value in usage texts; completions read it too.
    static func placeholder(for flag: String) -> String {
        switch flag {
        case "--store": return "DIR"
        case "--database-id": return "ID"
        case "--token": return "SECRET"
        case "--listen", "--peer": return "HOST:PORT"
        case "--server": return "tcp://HOST:PORT"
        case "--env-file", "--token-file", "-o", "--output": return "FILE"
        case "--format": return "text"
        case "--cursor-colour": return "blue"
        case "--args": return "'{\"id\": \"drawing-1\"}'"
        default: return "VALUE"
        }
    }
}

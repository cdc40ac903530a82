/// The options every subcommand accepts, as given on the command line (nil when not given).
/// `Configuration.resolve` fills the gaps from the environment, `.env` and defaults.
struct CommandLineOptions: Equatable, Sendable {
    var store: String?
    var databaseID: String?
    var token: String?
    /// `--token-file FILE`: the token read from a file only its owner can read.
    var tokenFile: String?
    var listen: HostPort?
    var peers: [HostPort] = []
    /// Every `--server` (repeatable; each may also be a comma-separated list), in order: the
    /// relays tried in turn.
    var servers: [HostPort] = []
    /// False with `--no-discovery`.
    var discovery = true
    var envFile: String?
    /// `--name NAME` (open only): the name other peers see.
    var name: String?
    /// `--cursor-colour NAME` (open only): the colour peers see one's cursor in.
    var cursorColour: String?
    /// `--theme dark|light` (export only): the SVG's background; nil is dark.
    var theme: ExportTheme?
    /// `--glyphs block|braille` (export only): the glyphs of text and ANSI; nil is block.
    var glyphs: ExportGlyphs?
}

/// A parsed command line: what to do, and the common options.
///
/// Pure: parsing neither prints nor exits; `main` prints a `CommandLineError` and exits 2.
/// Flags may come before or after the subcommand, as `--flag value` or `--flag=value`; `--` ends
/// the flags. Without a subcommand the words are `[DRAWING]` for `open`.
struct CommandLineArguments: Equatable, Sendable {
    var command: Command
    var options: CommandLineOptions

    init(command: Command, options: CommandLineOptions = CommandLineOptions()) {
        self.command = command
        self.options = options
    }

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(CommandLineError) -> CommandLineArguments {
        let scan = try FlagScan(arguments)
        if scan.has("--help") || scan.has("-h") {
            return CommandLineArguments(
                command: .help(topic: scan.positionals.first.flatMap(Subcommand.init)))
        }
        if scan.has("--version") {
            return CommandLineArguments(command: .version)
        }
        let options = try commonOptions(scan)
        return CommandLineArguments(command: try command(scan), options: options)
    }

    private static func commonOptions(_ scan: FlagScan) throws(CommandLineError) -> CommandLineOptions {
        var options = CommandLineOptions()
        options.store = scan.value("--store")
        options.databaseID = scan.value("--database-id")
        options.token = scan.value("--token")
        options.tokenFile = scan.value("--token-file")
        options.envFile = scan.value("--env-file")
        options.name = scan.value("--name")
        options.cursorColour = scan.value("--cursor-colour")
        if let theme = scan.value("--theme") {
            guard let known = ExportTheme(rawValue: theme) else { throw .badTheme(theme) }
            options.theme = known
        }
        if let glyphs = scan.value("--glyphs") {
            guard let known = ExportGlyphs(rawValue: glyphs) else { throw .badGlyphs(glyphs) }
            options.glyphs = known
        }
        options.discovery = !scan.has("--no-discovery")
        if let listen = scan.value("--listen") {
            options.listen = try address(listen, flag: "--listen") { text throws(HostPort.Problem) in
                try HostPort.parse(text, allowsPortZero: true)
            }
        }
        for peer in scan.values("--peer") {
            options.peers.append(
                try address(peer, flag: "--peer") { text throws(HostPort.Problem) in
                    try HostPort.parse(text)
                })
        }
        for list in scan.values("--server") {
            let servers = try addresses(list, flag: "--server") { text throws(HostPort.Problem) in
                try HostPort.parse(serverURLs: text)
            }
            options.servers += servers.filter { !options.servers.contains($0) }
        }
        return options
    }

    private static func address(
        _ text: String, flag: String, _ parse: (String) throws(HostPort.Problem) -> HostPort
    ) throws(CommandLineError) -> HostPort {
        do {
            return try parse(text)
        } catch {
            throw .badHostPort(flag: flag, value: text, problem: error)
        }
    }

    private static func addresses(
        _ text: String, flag: String, _ parse: (String) throws(HostPort.Problem) -> [HostPort]
    ) throws(CommandLineError) -> [HostPort] {
        do {
            return try parse(text)
        } catch {
            throw .badHostPort(flag: flag, value: text, problem: error)
        }
    }

    private static func command(_ scan: FlagScan) throws(CommandLineError) -> Command {
        var words = scan.positionals[...]
        let subcommand: Subcommand
        if let first = words.first, let named = Subcommand(rawValue: first) {
            subcommand = named
            words = words.dropFirst()
        } else {
            // `drawtogether NAME` opens NAME; more words, or another subcommand's flags, mean the
            // first word was meant as a subcommand. So does a lone word one typo away from a
            // subcommand (`drawtogether lsit`): opening it would quietly create a drawing named
            // after the typo. `drawtogether open lsit` still opens such a drawing.
            if let first = words.first {
                let suggestion = Subcommand.allCases.first { FlagScan.isCloseMatch(first, $0.rawValue) }
                if words.count > 1 || scan.hasSubcommandFlags || suggestion != nil {
                    throw .unknownSubcommand(first, suggestion: suggestion)
                }
            }
            subcommand = .open
        }
        try scan.rejectFlags(notBelongingTo: subcommand)

        let command: Command
        switch subcommand {
        case .open:
            command = .open(
                drawing: try words.popFirst().map { word throws(CommandLineError) in
                    try nonEmpty(word, "DRAWING", .open)
                })
        case .list:
            command = .list
        case .export:
            guard let drawing = words.popFirst() else {
                throw .missingArgument("a DRAWING to export", subcommand: .export)
            }
            guard let formatName = scan.value("--format") else {
                throw .missingOption("--format text|ansi|svg|json", subcommand: .export)
            }
            guard let format = ExportFormat(rawValue: formatName) else { throw .badFormat(formatName) }
            let output = scan.value("-o") ?? scan.value("--output")
            command = .export(
                drawing: try nonEmpty(drawing, "DRAWING", .export), format: format, output: output)
        case .query:
            guard let statement = words.popFirst() else {
                throw .missingArgument("a DQL statement, e.g. 'SELECT * FROM drawings'", subcommand: .query)
            }
            command = .query(statement: statement, argumentsJSON: scan.value("--args"))
        case .sync:
            command = .sync(once: scan.has("--once"))
        case .token:
            command = .token
        case .serve:
            guard scan.has("--listen") else { throw .missingOption("--listen HOST:PORT", subcommand: .serve) }
            command = .serve
        case .completions:
            guard let word = words.popFirst() else {
                throw .missingArgument("a shell: bash, zsh or fish", subcommand: .completions)
            }
            guard let request = CompletionRequest(rawValue: word) else { throw .badCompletionRequest(word) }
            command = .completions(request)
        case .doctor:
            command = .doctor
        case .manpage:
            command = .manPage
        }
        if let extra = words.first { throw .unexpectedArgument(extra, subcommand: subcommand) }
        return command
    }

    private static func nonEmpty(
        _ word: String, _ name: String, _ subcommand: Subcommand
    ) throws(CommandLineError) -> String {
        guard !word.isEmpty else { throw .missingArgument("a non-empty \(name)", subcommand: subcommand) }
        return word
    }
}

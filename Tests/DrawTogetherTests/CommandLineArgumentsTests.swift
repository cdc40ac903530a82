import Testing

@testable import drawtogether

@Suite struct CommandLineArgumentsTests {
    private func parse(_ arguments: String...) throws -> CommandLineArguments {
        try CommandLineArguments.parse(arguments)
    }

    private func command(_ arguments: String...) throws -> Command {
        try CommandLineArguments.parse(arguments).command
    }

    private func error(_ arguments: String...) -> CommandLineError? {
        do {
            _ = try CommandLineArguments.parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Subcommands

    @Test func noArgumentsOpensTheDefaultDrawingWithDefaultOptions() throws {
        // No drawing named: the store's last one, else drawing-1 (OpenCommand decides).
        #expect(try parse() == CommandLineArguments(command: .open(drawing: nil)))
        #expect(try command("open") == .open(drawing: nil))
        #expect(try command("open", "notes") == .open(drawing: "notes"))
        #expect(try command("notes") == .open(drawing: "notes"))
        #expect(try command("--", "--weird") == .open(drawing: "--weird"))
    }

    @Test func everySubcommandParses() throws {
        #expect(try command("list") == .list)
        #expect(
            try command("export", "d1", "--format", "svg")
                == .export(drawing: "d1", format: .svg, output: nil))
        #expect(
            try command("export", "--format=ansi", "d1", "-o", "out.txt")
                == .export(drawing: "d1", format: .ansi, output: "out.txt"))
        #expect(
            try command("export", "d1", "--format", "json", "--output=x.json")
                == .export(drawing: "d1", format: .json, output: "x.json"))
        #expect(
            try command("query", "SELECT * FROM drawings")
                == .query(statement: "SELECT * FROM drawings", argumentsJSON: nil))
        #expect(
            try command("query", "DELETE FROM drawings WHERE _id = :id", "--args", #"{"id":"d"}"#)
                == .query(statement: "DELETE FROM drawings WHERE _id = :id", argumentsJSON: #"{"id":"d"}"#))
        #expect(try command("sync") == .sync(once: false))
        #expect(try command("sync", "--once") == .sync(once: true))
        #expect(
            try parse("serve", "--listen", "0.0.0.0:7000", "--token", "t")
                == CommandLineArguments(
                    command: .serve,
                    options: CommandLineOptions(
                        token: "t", listen: HostPort(host: "0.0.0.0", port: 7000))))
    }

    @Test func helpAndVersionWinWhereverTheyStand() throws {
        #expect(try command("--help") == .help(topic: nil))
        #expect(try command("-h") == .help(topic: nil))
        #expect(try command("export", "--help") == .help(topic: .export))
        #expect(try command("--help", "query") == .help(topic: .query))
        #expect(try command("serve", "-h") == .help(topic: .serve))
        #expect(try command("notes", "--help") == .help(topic: nil))
        #expect(try command("sync", "--version") == .version)
    }

    // MARK: Common options

    @Test func commonOptionsStandBeforeOrAfterTheSubcommandInBothForms() throws {
        let parsed = try parse(
            "--store", "/tmp/s", "sync", "--database-id=team", "--token", "secret", "--listen", "127.0.0.1:0",
            "--peer", "a.example:7000", "--peer=[::1]:7001", "--server", "tcp://relay:9000", "--no-discovery",
            "--env-file", "conf.env")
        #expect(parsed.command == .sync(once: false))
        #expect(
            parsed.options
                == CommandLineOptions(
                    store: "/tmp/s", databaseID: "team", token: "secret",
                    listen: HostPort(host: "127.0.0.1", port: 0),
                    peers: [HostPort(host: "a.example", port: 7000), HostPort(host: "::1", port: 7001)],
                    servers: [HostPort(host: "relay", port: 9000)], discovery: false, envFile: "conf.env"))
    }

    @Test func serverIsRepeatableAndEachMayBeAList() throws {
        let parsed = try parse(
            "open", "--server", "tcp://a:1", "--server=tcp://b:2,tcp://c:3", "--server", "tcp://a:1")
        #expect(
            parsed.options.servers == [
                HostPort(host: "a", port: 1), HostPort(host: "b", port: 2), HostPort(host: "c", port: 3),
            ])
        #expect(
            error("--server", "tcp://a:1,,tcp://b:2")
                == .badHostPort(
                    flag: "--server", value: "tcp://a:1,,tcp://b:2", problem: .emptyListItem(item: 2, of: 3)))
        #expect(
            UserMessage.message(for: error("--server", "tcp://a:1,tcp//b:2")!)
                == "--server 'tcp://a:1,tcp//b:2' is not a valid address: item 2 of 2, 'tcp//b:2', is not valid: "
                + "a server URL has the form tcp://HOST:PORT")
    }

    @Test func aRepeatedSingleValueFlagKeepsTheLastValue() throws {
        #expect(try parse("--store", "a", "--store", "b", "list").options.store == "b")
    }

    // MARK: Errors

    @Test func unknownFlagsAreNamedWithASuggestion() {
        #expect(error("--frobnicate") == .unknownFlag("--frobnicate", suggestion: nil))
        #expect(error("--stor", "x") == .unknownFlag("--stor", suggestion: "--store"))
        #expect(error("list", "--no-discover") == .unknownFlag("--no-discover", suggestion: "--no-discovery"))
        #expect(error("-x") == .unknownFlag("-x", suggestion: nil))
        let message = CommandLineError.unknownFlag("--stor", suggestion: "--store").description
        #expect(message == "unknown option '--stor'; did you mean '--store'? (see 'drawtogether --help')")
    }

    @Test func flagValuesMustBePresentNonEmptyAndOnlyWhereTaken() {
        #expect(error("--store") == .missingValue(flag: "--store"))
        #expect(error("--token", "--listen", "h:1") == .missingValue(flag: "--token"))
        #expect(error("--store=") == .emptyValue(flag: "--store"))
        #expect(error("sync", "--once=yes") == .unexpectedValue(flag: "--once", value: "yes"))
        #expect(
            CommandLineError.missingValue(flag: "--peer").description
                == "--peer needs a value, e.g. '--peer HOST:PORT'")
    }

    @Test func badAddressesSayWhatIsWrong() {
        #expect(
            error("--peer", "localhost")
                == .badHostPort(flag: "--peer", value: "localhost", problem: .missingPort))
        #expect(
            error("--peer", "h:70000")
                == .badHostPort(flag: "--peer", value: "h:70000", problem: .badPort("70000")))
        #expect(
            error("--peer", "h:0") == .badHostPort(flag: "--peer", value: "h:0", problem: .portZeroNotAllowed)
        )
        #expect(
            error("--listen", ":7000") == .badHostPort(flag: "--listen", value: ":7000", problem: .emptyHost))
        #expect(
            error("--peer", "::1:7000")
                == .badHostPort(flag: "--peer", value: "::1:7000", problem: .unbracketedIPv6))
        #expect(
            error("--peer", "a b:1")
                == .badHostPort(flag: "--peer", value: "a b:1", problem: .badHostCharacter(" ")))
        #expect(
            error("--server", "relay:9000")
                == .badHostPort(flag: "--server", value: "relay:9000", problem: .notTCPURL))
        #expect(
            error("--server", "http://relay:9000")
                == .badHostPort(flag: "--server", value: "http://relay:9000", problem: .notTCPURL))
    }

    @Test func subcommandArgumentsAndOptionsAreChecked() {
        #expect(error("export", "d", "--format", "png") == .badFormat("png"))
        #expect(error("export", "d") == .missingOption("--format text|ansi|svg|json", subcommand: .export))
        #expect(
            error("export", "--format", "text")
                == .missingArgument("a DRAWING to export", subcommand: .export))
        #expect(
            error("query")
                == .missingArgument("a DQL statement, e.g. 'SELECT * FROM drawings'", subcommand: .query))
        #expect(error("serve") == .missingOption("--listen HOST:PORT", subcommand: .serve))
        #expect(error("list", "extra") == .unexpectedArgument("extra", subcommand: .list))
        #expect(error("open", "a", "b") == .unexpectedArgument("b", subcommand: .open))
        #expect(error("open", "") == .missingArgument("a non-empty DRAWING", subcommand: .open))
        #expect(
            error("list", "--once") == .optionNotForSubcommand(flag: "--once", belongsTo: .sync, used: .list))
        #expect(
            error("open", "d", "--format", "svg")
                == .optionNotForSubcommand(flag: "--format", belongsTo: .export, used: .open))
    }

    @Test func aMistypedSubcommandIsReportedNotOpenedAsADrawing() throws {
        #expect(error("exprot", "d", "--format", "text") == .unknownSubcommand("exprot", suggestion: .export))
        #expect(error("lst", "x") == .unknownSubcommand("lst", suggestion: .list))
        #expect(error("synk", "--once") == .unknownSubcommand("synk", suggestion: .sync))
        #expect(error("sink", "--once") == .unknownSubcommand("sink", suggestion: nil))
        #expect(error("frob", "x") == .unknownSubcommand("frob", suggestion: nil))
        // A lone word one typo away from a subcommand is not opened as a drawing named after it.
        #expect(error("lsit") == .unknownSubcommand("lsit", suggestion: .list))
        #expect(error("exprot") == .unknownSubcommand("exprot", suggestion: .export))
        #expect(try command("open", "lsit") == .open(drawing: "lsit"))
        #expect(try command("sketches") == .open(drawing: "sketches"))
        let message = CommandLineError.unknownSubcommand("exprot", suggestion: .export).description
        #expect(message.contains("did you mean 'export'?"))
        #expect(message.contains("drawtogether open NAME"))
    }

    @Test func everyErrorMessageIsOneLine() {
        let errors: [CommandLineError] = [
            .unknownFlag("--x", suggestion: nil), .missingValue(flag: "--args"), .emptyValue(flag: "--token"),
            .unexpectedValue(flag: "--once", value: "1"), .badFormat("png"),
            .badHostPort(flag: "--listen", value: "x", problem: .missingPort),
            .unknownSubcommand("x", suggestion: nil), .unexpectedArgument("x", subcommand: .list),
            .missingArgument("DRAWING", subcommand: .export), .missingOption("--listen", subcommand: .serve),
            .optionNotForSubcommand(flag: "--once", belongsTo: .sync, used: .list),
        ]
        for error in errors {
            #expect(!error.description.contains("\n") && !error.description.isEmpty, "\(error)")
        }
    }

    @Test func hostPortPrintsIPv6InBrackets() throws {
        #expect(try HostPort.parse("[::1]:7000").description == "[::1]:7000")
        #expect(try HostPort.parse("example.org:80").description == "example.org:80")
        #expect(try HostPort.parse(serverURL: "TCP://relay:9000/") == HostPort(host: "relay", port: 9000))
    }
}

import FoundationEssentials

/// The one place that turns a parsed command line into work, prints, and picks the exit code:
/// 0 done, 1 the work failed, 2 the command line or configuration was wrong.
enum DrawTogetherApp {
    static let version = "0.1.0"

    static func run(_ arguments: [String]) -> Int32 {
        let parsed: CommandLineArguments
        do {
            parsed = try CommandLineArguments.parse(arguments)
        } catch {
            printError("drawtogether: \(UserMessage.message(for: error))")
            return 2
        }
        switch parsed.command {
        case .version:
            return printing("drawtogether \(version)\n")
        case .help(let topic):
            return printHelp(topic)
        case .token:
            // Needs no configuration: a fresh token is the first step of setting one up.
            var random = SystemRandomNumberGenerator()
            print(SharedToken.generate(using: &random))
            return 0
        case .completions(let request) where request != .drawings:
            return CompletionsCommand.printScript(for: request)
        case .manPage:
            return ManPageCommand.run()
        case .doctor:
            return DoctorCommand.run(options: parsed.options)
        default:
            break
        }
        let configuration: Configuration
        do {
            configuration = try Configuration.resolve(
                options: parsed.options,
                environment: ProcessInfo.processInfo.environment,
                workingDirectory: FileManager.default.currentDirectoryPath,
                readFile: Configuration.readFileFromDisk,
                warn: { printError("drawtogether: warning: \($0)") })
        } catch {
            printError("drawtogether: \(UserMessage.message(for: error))")
            return 2
        }
        return perform(parsed.command, configuration: configuration)
    }

    /// Runs a command; errors are printed here, once, as one line.
    static func perform(_ command: Command, configuration: Configuration) -> Int32 {
        do {
            switch command {
            case .sync(let once):
                return try SyncCommand.run(configuration: configuration, once: once)
            case .serve:
                return try ServeCommand.run(configuration: configuration)
            case .query(let statement, let argumentsJSON):
                return try QueryCommand.run(
                    configuration: configuration, statement: statement, argumentsJSON: argumentsJSON)
            case .list:
                return try ListCommand.run(configuration: configuration)
            case .export(let drawing, let format, let output):
                return try ExportCommand.run(
                    configuration: configuration, drawing: drawing, format: format, output: output)
            case .open(let drawing):
                return try OpenCommand.run(configuration: configuration, drawing: drawing)
            case .completions(let request):
                return try CompletionsCommand.run(request, configuration: configuration)
            case .help, .version, .manPage, .doctor, .token:
                // Handled by `run` before the configuration is resolved.
                return 0
            }
        } catch {
            printError("drawtogether: \(UserMessage.message(for: error))")
            return 1
        }
    }

    /// Prints `text` on standard output: 0, or 1 after saying why it could not be written.
    private static func printing(_ text: String) -> Int32 {
        do {
            try CommandOutput.printStandardOutput(text)
            return 0
        } catch {
            printError("drawtogether: \(UserMessage.message(for: error))")
            return 1
        }
    }

    private static func printHelp(_ topic: Subcommand?) -> Int32 {
        do {
            let resources = try ResourceDirectory.locate()
            var text = try resources.text("help/\(topic?.rawValue ?? "usage").txt")
            // The canvas's keys, from the same file as its help overlay.
            if topic == .open { text += "\n" + (try resources.text("help/keys.txt")) }
            try CommandOutput.printStandardOutput(text)
            return 0
        } catch {
            printError("drawtogether: \(UserMessage.message(for: error))")
            return 1
        }
    }
}

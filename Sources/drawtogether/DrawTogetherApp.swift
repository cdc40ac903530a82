import Foundation

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
            case .help, .version:
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

import FoundationEssentials

/// `drawtogether doctor`: checks the terminal, the store, local discovery, the settings in
/// effect and the configured peers, and prints one line per check. Exit 0 when no line is a
/// problem, 1 otherwise. It never writes to the replica and never prints the token.
enum DoctorCommand {
    static func run(options: CommandLineOptions) -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        var findings = Doctor.terminal(Doctor.TerminalFacts.gather(environment: environment))
        var resolved: Configuration?
        var origins: [Configuration.Setting: SettingSource] = [:]
        var warnings: [String] = []
        do {
            resolved = try Configuration.resolve(
                options: options, environment: environment,
                workingDirectory: FileManager.default.currentDirectoryPath,
                readFile: Configuration.readFileFromDisk, warn: { warnings.append($0) },
                origin: { origins[$0] = $1 })
        } catch {
            findings.append(.problem(.settings, UserMessage.message(for: error)))
        }
        print(findings)
        guard let configuration = resolved else {
            let skipped = DoctorFinding.problem(
                .store, "not checked: the settings above must be fixed first")
            print([skipped])
            return 1
        }
        var later = Doctor.settings(configuration, origins: origins, warnings: warnings)
        later += Doctor.store(configuration)
        later += Doctor.discovery(configuration)
        print(later)
        // The network check waits for answers: what is known so far is on the screen meanwhile.
        let network = Doctor.network(configuration)
        print(network)
        let all = findings + later + network
        return all.contains { $0.status == .problem } ? 1 : 0
    }

    private static func print(_ findings: [DoctorFinding]) {
        let text = findings.map { $0.line + "\n" }.joined()
        // A reader that went away takes the rest of the report with it; the exit status still says.
        try? CommandOutput.printStandardOutput(text)
    }
}

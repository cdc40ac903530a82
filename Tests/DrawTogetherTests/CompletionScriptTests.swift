import Foundation
import ReplicaCore
import ReplicaStore
import TestSupport
import Testing

@testable import drawtogether

/// The completion scripts run in the real shells: bash through the function `complete -p`
/// names, with COMP_WORDS as bash fills them; fish through `complete -C`; zsh on Tab in tmux.
@Suite struct CompletionScriptTests {
    static let binary = BuiltProducts.executable("drawtogether")

    private static func isInstalled(_ program: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/" + program)
            || FileManager.default.isExecutableFile(atPath: "/bin/" + program)
    }

    private func script(_ shell: String, in directory: TemporaryDirectory) throws -> String {
        let result = try runProcess(Self.binary, ["completions", shell])
        #expect(result.status == 0, "\(result.standardError)")
        let path = directory.path + "/completion.\(shell)"
        try result.standardOutput.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// What bash offers for a command line whose last word is being completed.
    private func bashCompletions(_ words: [String], script: String, in directory: String) throws -> [String] {
        let harness = """
            source "$1"
            shift
            function=$(complete -p drawtogether | sed -n 's/.*-F \\([^ ]*\\) .*/\\1/p')
            COMP_WORDS=("$@")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMP_LINE="$*"
            COMP_POINT=${#COMP_LINE}
            "$function" drawtogether "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try runProcess(
            "/bin/bash", ["--norc", "--noprofile", "-c", harness, "bash", script, Self.binary] + words,
            currentDirectory: directory)
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        return result.standardOutput.split(separator: "\n").map(String.init).sorted()
    }

    @Test func bashRegistersTheFunctionAndCompletesSubcommandsFlagsAndFormats() throws {
        let directory = try TemporaryDirectory(prefix: "completions")
        let script = try script("bash", in: directory)
        let registered = try runProcess(
            "/bin/bash",
            ["--norc", "--noprofile", "-c", "source \"$1\" && complete -p drawtogether", "bash", script])
        #expect(registered.standardOutput == "complete -F _drawtogether drawtogether\n", "\(registered)")

        let complete = { (words: [String]) in try bashCompletions(words, script: script, in: directory.path) }
        #expect(try complete(["ex"]) == ["export"])
        #expect(try complete([""]) == Subcommand.allCases.map(\.rawValue).sorted())
        #expect(try complete(["export", "d", "--fo"]) == ["--format"])
        let formats = ExportFormat.allCases.map(\.rawValue).sorted()
        #expect(try complete(["export", "d", "--format", ""]) == formats)
        #expect(try complete(["export", "d", "--format", "="]) == formats)
        #expect(try complete(["export", "d", "--format", "s"]) == ["svg"])
        #expect(try complete(["export", "d", "--gl"]) == ["--glyphs"])
        #expect(try complete(["export", "d", "--glyphs", ""]) == ["block", "braille"])
        #expect(try complete(["completions", ""]) == CompletionRequest.allCases.map(\.rawValue).sorted())
        // A subcommand's own flags only after it; the common ones everywhere.
        #expect(try complete(["list", "--o"]).isEmpty)
        #expect(try complete(["sync", "--o"]) == ["--once"])
        let forSync = FlagScan.specs.filter { $0.value.owner == nil || $0.value.owner == .sync }.keys.sorted()
        #expect(try complete(["sync", "-"]) == forSync)
        // --store takes a directory.
        try FileManager.default.createDirectory(
            atPath: directory.path + "/stores", withIntermediateDirectories: true)
        #expect(try complete(["list", "--store", "st"]) == ["stores"])
    }

    @Test func bashCompletesTheDrawingsOfTheStoreTheCommandLineNames() throws {
        let directory = try TemporaryDirectory(prefix: "completions")
        let script = try script("bash", in: directory)
        let store = directory.path + "/store"
        let replica = try Replica(directory: store + "/default/replica-1")
        for id in ["alpha", "beta", "with space"] {
            try replica.execute(
                "INSERT INTO drawings DOCUMENTS (:d)", arguments: ["d": .object(["_id": .string(id)])])
        }
        let complete = { (words: [String]) in try bashCompletions(words, script: script, in: directory.path) }
        #expect(try complete(["--store", store, "export", ""]) == ["alpha", "beta", #"with\ space"#])
        #expect(try complete(["open", "--store=\(store)", "al"]) == ["alpha"])
        #expect(try complete(["export", "--store", store, "b"]) == ["beta"])
        // After the drawing, export offers nothing more but its flags.
        #expect(try complete(["export", "--store", store, "alpha", ""]).isEmpty)
        // Another store, another set: nothing here.
        #expect(try complete(["export", "--store", directory.path + "/empty", ""]).isEmpty)
    }

    @Test func fishCompletesThroughItsOwnCompleteCommand() throws {
        guard Self.isInstalled("fish") else { return }
        let directory = try TemporaryDirectory(prefix: "completions")
        let script = try script("fish", in: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = BuiltProducts.directory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["HOME"] = directory.path
        environment["XDG_CONFIG_HOME"] = directory.path
        func complete(_ line: String) throws -> [String] {
            let result = try runProcess(
                "/usr/bin/fish",
                ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script, line],
                environment: environment, currentDirectory: directory.path)
            #expect(result.status == 0, "\(result.standardError)")
            return result.standardOutput.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
                .sorted()
        }
        #expect(try complete("drawtogether ex") == ["export"])
        #expect(
            try complete("drawtogether export d --format ") == ExportFormat.allCases.map(\.rawValue).sorted())
        #expect(try complete("drawtogether sync --o") == ["--once"])
        #expect(try complete("drawtogether list --o").isEmpty)
    }

    @Test func zshParsesItsScript() throws {
        guard Self.isInstalled("zsh") else { return }
        let directory = try TemporaryDirectory(prefix: "completions")
        let script = try script("zsh", in: directory)
        let result = try runProcess("/usr/bin/zsh", ["-n", script])
        #expect(result.status == 0 && result.standardError.isEmpty, "\(result.standardError)")
        #expect(try String(contentsOfFile: script, encoding: .utf8).hasPrefix("#compdef drawtogether\n"))
    }

    @Test func zshCompletesOnTabInAnInteractiveShell() throws {
        guard Self.isInstalled("zsh"), TmuxSession.isAvailable else { return }
        let directory = try TemporaryDirectory(prefix: "completions")
        let functions = directory.path + "/functions"
        try FileManager.default.createDirectory(atPath: functions, withIntermediateDirectories: true)
        let script = try script("zsh", in: directory)
        try FileManager.default.moveItem(atPath: script, toPath: functions + "/_drawtogether")
        let store = directory.path + "/store"
        try Replica(directory: store + "/default/replica-1").execute(
            "INSERT INTO drawings DOCUMENTS (:d)", arguments: ["d": .object(["_id": .string("alpha")])])
        try """
        fpath=(\(functions) $fpath)
        autoload -Uz compinit && compinit -u -d \(directory.path)/.zcompdump
        PS1='ready> '
        """.write(toFile: directory.path + "/.zshrc", atomically: true, encoding: .utf8)
        let path = BuiltProducts.directory.path + ":/usr/bin:/bin"
        let shell = try TmuxSession(
            ["/usr/bin/zsh", "-i"], width: 100, height: 20,
            environment: ["ZDOTDIR": directory.path, "PATH": path, "HOME": directory.path],
            currentDirectory: directory.path)
        try shell.waitForText("ready>")
        try shell.sendKeys("drawtogether ex", "Tab")
        try shell.waitForText("ready> drawtogether export")
        try shell.sendKeys("d --format ", "Tab")
        try shell.waitUntil { screen in
            screen.contains { line in ExportFormat.allCases.allSatisfy { line.contains($0.rawValue) } }
        }
        try shell.sendKeys("C-u", "drawtogether sync --o", "Tab")
        try shell.waitForText("ready> drawtogether sync --once")
        try shell.sendKeys("C-u", "drawtogether --store \(store) export ", "Tab")
        try shell.waitForText("export alpha")
    }

    @Test func everyCommonOptionHasASummaryInTheUsageText() throws {
        let resources = try ResourceDirectory.locate(executablePath: Self.binary)
        let model = try CompletionModel { try resources.text("help/\($0).txt") }
        for option in model.options where option.owner == nil {
            #expect(option.summary != nil, "\(option.name) is not described in usage.txt")
        }
        for command in model.commands {
            #expect(command.summary?.isEmpty == false, "\(command.name) has no first sentence in its help")
        }
    }
}

import Foundation
import TestSupport
import Testing

@testable import drawtogether

/// A misspelt `DRAWTOGETHER_` name would otherwise be ignored without a word.
@Suite struct UnknownVariableTests {
    func warnings(environment: [String: String] = [:], dotEnv: String? = nil) throws -> [String] {
        var heard: [String] = []
        let options = try CommandLineArguments.parse(["list"]).options
        _ = try Configuration.resolve(
            options: options, environment: environment.merging(["HOME": "/home/ada"]) { $1 },
            workingDirectory: "/w", readFile: { $0 == "/w/.env" ? dotEnv : nil }, warn: { heard.append($0) })
        return heard
    }

    @Test func aMisspeltNameInTheEnvFileIsNamedWithItsLineAndTheKnownNames() throws {
        let heard = try warnings(dotEnv: "OTHER_TOOL=1\nDRAWTOGETHER_TOKEN=t\nDRAWTOGETHER_TOKN=x\n")
        #expect(heard.count == 1)
        let warning = try #require(heard.first)
        #expect(warning.hasPrefix("DRAWTOGETHER_TOKN in /w/.env line 3 is not a setting drawtogether knows"))
        for known in Configuration.Variable.settings { #expect(warning.contains(known)) }
    }

    @Test func anEnvironmentOnlyNameInTheEnvFileSaysWhereItBelongs() throws {
        #expect(
            try warnings(dotEnv: "DRAWTOGETHER_SYNC_TIMEOUT=3\n")
                == [
                    "DRAWTOGETHER_SYNC_TIMEOUT in /w/.env line 1 is ignored: it is read from the environment only"
                ])
    }

    @Test func aMisspeltNameInTheEnvironmentIsNamedButKnownOnesAreNot() throws {
        let heard = try warnings(environment: [
            "DRAWTOGETHER_STOER": "/s", "DRAWTOGETHER_TOKEN": "t", "DRAWTOGETHER_SYNC_TIMEOUT": "3",
            "DRAWTOGETHER_RESOURCES": "/r", "PATH": "/bin",
        ])
        #expect(heard.count == 1)
        #expect(heard.first?.hasPrefix("DRAWTOGETHER_STOER in the environment is not a setting") == true)
        #expect(
            try warnings(environment: ["DRAWTOGETHER_DATABASE_ID": "d"], dotEnv: "DRAWTOGETHER_STORE=/s\n")
                == [])
    }

    @Test func theAppPrintsTheWarningOnStandardErrorAndCarriesOn() throws {
        let directory = try TemporaryDirectory()
        try "DRAWTOGETHER_TOKN=x\n".write(toFile: directory.path + "/.env", atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("DRAWTOGETHER_") }
        environment["DRAWTOGETHER_COLOUR"] = "red"
        let result = try runProcess(
            BuiltProducts.executable("drawtogether"), ["list", "--store", directory.path + "/store"],
            environment: environment, currentDirectory: directory.path)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(
            lines.first?.hasPrefix(
                "drawtogether: warning: DRAWTOGETHER_TOKN in \(directory.path)/.env line 1") == true)
        #expect(
            lines.dropFirst().first?.hasPrefix(
                "drawtogether: warning: DRAWTOGETHER_COLOUR in the environment") == true)
        #expect(lines.last?.contains("there is no replica") == true)
    }
}

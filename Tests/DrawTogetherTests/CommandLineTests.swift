import Foundation
import TestSupport
import Testing

@Suite struct CommandLineTests {
    let binary = BuiltProducts.executable("drawtogether")

    @Test func helpPrintsUsageAndExitsZero() throws {
        let result = try runProcess(binary, ["--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("usage:"))
        #expect(result.standardOutput.contains("drawtogether export DRAWING --format"))
    }

    @Test func openHelpListsTheCanvasKeysFromTheOverlaysFile() throws {
        let result = try runProcess(binary, ["open", "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("usage: drawtogether [open]"))
        #expect(result.standardOutput.contains("mask eraser"))
        #expect(result.standardOutput.contains("Ctrl-Z"))
    }

    @Test func helpIsFoundFromACopiedBinaryThroughTheEnvironment() throws {
        let directory = try TemporaryDirectory()
        let copy = directory.url.appendingPathComponent("drawtogether").path
        try copyExecutable(binary, to: copy)
        let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Resources").path
        var environment = ProcessInfo.processInfo.environment
        environment["DRAWTOGETHER_RESOURCES"] = resources
        let result = try runProcess(copy, ["--help"], environment: environment)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("usage:"))

        environment["DRAWTOGETHER_RESOURCES"] = nil
        let lost = try runProcess(copy, ["--help"], environment: environment)
        #expect(lost.status == 1)
        #expect(lost.standardError.contains("DRAWTOGETHER_RESOURCES"))
    }

    @Test func versionPrintsTheVersion() throws {
        let result = try runProcess(binary, ["--version"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("drawtogether "))
    }

    @Test func unknownFlagIsAOneLineErrorWithExitCodeTwo() throws {
        let result = try runProcess(binary, ["--frobnicate"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("--frobnicate"))
        #expect(result.standardError.split(separator: "\n").count == 1)
    }
}

@Suite struct SubcommandHelpTests {
    let binary = BuiltProducts.executable("drawtogether")

    @Test(arguments: ["open", "list", "export", "query", "sync", "serve"])
    func everySubcommandHasItsOwnHelp(subcommand: String) throws {
        let result = try runProcess(binary, [subcommand, "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("usage: drawtogether"))
        #expect(result.standardOutput.contains(subcommand == "open" ? "[open]" : subcommand))
    }

    @Test func aTCPPeerWithoutATokenIsRefusedWithHowToSetOne() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DRAWTOGETHER_TOKEN"] = nil
        let directory = try TemporaryDirectory()
        let result = try runProcess(
            binary, ["sync", "--once", "--peer", "127.0.0.1:9", "--store", directory.path],
            environment: environment, currentDirectory: directory.path)
        #expect(result.status == 2)
        #expect(result.standardError.contains("DRAWTOGETHER_TOKEN"))
    }
}

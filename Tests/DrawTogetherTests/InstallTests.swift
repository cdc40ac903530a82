import DrawingSync
import Foundation
import ReplicaCore
import ReplicaStore
import StrokeKit
import TestSupport
import Testing

/// `bin/install` into a temporary prefix from a copy of the source tree that is deleted before
/// the installed binary runs, from another directory: it must find its resources beside its
/// `bin/`, and `--uninstall` must take away exactly what was installed.
@Suite struct InstallTests {
    static let sourceTree = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The environment without DrawTogether settings or a resources override.
    private func environment(home: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("DRAWTOGETHER_") }
        environment["HOME"] = home
        environment["XDG_DATA_HOME"] = home + "/data"
        environment["XDG_RUNTIME_DIR"] = home
        return environment
    }

    /// What the tree needs for `bin/install --configuration debug`: the script, the resources,
    /// and the binary `swift test` built, where a debug build puts it.
    private func copyOfSourceTree(in directory: TemporaryDirectory) throws -> String {
        let tree = directory.path + "/source"
        let files = FileManager.default
        try files.createDirectory(atPath: tree + "/bin", withIntermediateDirectories: true)
        try files.createDirectory(atPath: tree + "/.build/debug", withIntermediateDirectories: true)
        try files.copyItem(atPath: Self.sourceTree.path + "/bin/install", toPath: tree + "/bin/install")
        try files.copyItem(atPath: Self.sourceTree.path + "/Resources", toPath: tree + "/Resources")
        try copyExecutable(BuiltProducts.executable("drawtogether"), to: tree + "/.build/debug/drawtogether")
        return tree
    }

    private func files(under path: String) -> [String] {
        (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test func theInstalledBinaryRunsWithTheSourceTreeGoneAndUninstallRemovesExactlyIt() throws {
        let directory = try TemporaryDirectory(prefix: "install")
        let tree = try copyOfSourceTree(in: directory)
        let prefix = directory.path + "/prefix with space"
        let elsewhere = directory.path + "/elsewhere"
        try FileManager.default.createDirectory(atPath: prefix + "/share", withIntermediateDirectories: true)
        try "keep me".write(toFile: prefix + "/share/users-own-file", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let environment = environment(home: directory.path)

        let install = try runProcess(
            "/bin/bash", [tree + "/bin/install", "--prefix", prefix, "--configuration", "debug"],
            environment: environment, currentDirectory: elsewhere)
        #expect(install.status == 0, "\(install.standardError)")
        // Installing again replaces the first install (its manifest is read, not appended to).
        let reinstall = try runProcess(
            "/bin/bash", [tree + "/bin/install", "--prefix", prefix, "--configuration", "debug"],
            environment: environment, currentDirectory: elsewhere)
        #expect(reinstall.status == 0, "\(reinstall.standardError)")
        try FileManager.default.removeItem(atPath: tree)

        let installed = prefix + "/bin/drawtogether"
        for path in [
            "/share/drawtogether/help/usage.txt", "/share/drawtogether/palette.txt",
            "/share/man/man1/drawtogether.1", "/share/bash-completion/completions/drawtogether",
            "/share/zsh/site-functions/_drawtogether", "/share/fish/vendor_completions.d/drawtogether.fish",
        ] {
            #expect(FileManager.default.fileExists(atPath: prefix + path), "\(path) was not installed")
        }
        let run = { (arguments: [String]) in
            try runProcess(installed, arguments, environment: environment, currentDirectory: elsewhere)
        }
        let version = try run(["--version"])
        #expect(version.status == 0 && version.standardOutput.hasPrefix("drawtogether "), "\(version)")
        let help = try run(["export", "--help"])
        #expect(help.status == 0 && help.standardOutput.contains("--format text|ansi|svg|json"), "\(help)")

        // A replica holding the sample drawing, as an earlier session would have left it.
        let groups = try DrawingJSON.decode(
            String(
                contentsOf: Self.sourceTree.appendingPathComponent("Resources/sample-drawing.json"),
                encoding: .utf8))
        let store = directory.path + "/store"
        var strokes: [String: DocumentValue] = [:]
        for group in groups { strokes[group.key.rawValue] = .string(EncodedGroup(group).value) }
        try Replica(directory: store + "/default/replica-1").execute(
            "INSERT INTO drawings DOCUMENTS (:doc)",
            arguments: [
                "doc": .object([
                    "_id": .string("sample"), "name": .string("Sample house"), "strokes": .object(strokes),
                ])
            ])
        let list = try run(["list", "--store", store])
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.standardOutput.contains("sample  Sample house"), "\(list.standardOutput)")
        let export = try run(["export", "sample", "--format", "text", "--store", store])
        #expect(export.status == 0, "\(export.standardError)")
        #expect(export.standardOutput == DrawingExporter.export(groups, as: .text))
        let manual = try String(contentsOfFile: prefix + "/share/man/man1/drawtogether.1", encoding: .utf8)
        #expect(manual.hasPrefix(".TH DRAWTOGETHER 1"))

        let uninstall = try runProcess(
            "/bin/bash", [Self.sourceTree.path + "/bin/install", "--uninstall", "--prefix", prefix],
            environment: environment, currentDirectory: elsewhere)
        #expect(uninstall.status == 0, "\(uninstall.standardError)")
        #expect(files(under: prefix) == ["share", "share/users-own-file"])
        let again = try runProcess(
            "/bin/bash", [Self.sourceTree.path + "/bin/install", "--uninstall", "--prefix", prefix],
            environment: environment, currentDirectory: elsewhere)
        #expect(again.status == 1 && again.standardError.contains("nothing to uninstall"), "\(again)")
    }

    @Test func installingWithoutABuildSaysWhichBuildToMake() throws {
        let directory = try TemporaryDirectory(prefix: "install")
        let tree = directory.path + "/source"
        try FileManager.default.createDirectory(atPath: tree + "/bin", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Self.sourceTree.path + "/bin/install", toPath: tree + "/bin/install")
        let result = try runProcess(
            "/bin/bash", [tree + "/bin/install", "--prefix", directory.path + "/prefix"],
            environment: environment(home: directory.path))
        #expect(result.status == 1)
        #expect(result.standardError.contains("run 'swift build -c release'"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/prefix"))
    }
}

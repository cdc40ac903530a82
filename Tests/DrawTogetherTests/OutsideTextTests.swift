import Foundation
import ReplicaCore
import ReplicaStore
import TestSupport
import Testing

@testable import drawtogether

/// Text from outside the program — a drawing's name from a peer, a `.env` value, a path that is
/// not UTF-8 — is shown escaped and short, or refused, never obeyed or silently changed.
@Suite struct OutsideTextTests {
    let binary = BuiltProducts.executable("drawtogether")
    static let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("DRAWTOGETHER_") }

    @Test func escapingShowsControlCharactersOnOneLine() {
        #expect(DisplayText.escaped("a\nb\t\u{1B}[31m\u{7F}\u{2028}é") == #"a\nb\t\u{1B}[31m\u{7F}\u{2028}é"#)
        #expect(DisplayText.excerpt(String(repeating: "x", count: 100), limit: 4) == "xxxx… (100 bytes)")
        #expect(DisplayText.excerpt("short") == "short")
    }

    @Test func listShowsControlCharactersOfNamesEscaped() throws {
        let store = try TemporaryDirectory()
        let directory = store.path + "/default/replica-1"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Replica(directory: directory).execute(
            "INSERT INTO drawings DOCUMENTS (:d)",
            arguments: [
                "d": .object(["_id": .string("d\u{1B}]0;x\u{7}"), "name": .string("forged\nID  NAME")])
            ])
        let result = try runProcess(
            binary, ["list", "--store", store.path], environment: Self.environment,
            currentDirectory: store.path)
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 2, "\(result.standardOutput)")
        #expect(result.standardOutput.contains(#"d\u{1B}]0;x\u{7}  forged\nID  NAME"#))
        #expect(!result.standardOutput.contains("\u{1B}"))
    }

    @Test func aHugeDotEnvValueIsNotEchoedWhole() throws {
        let directory = try TemporaryDirectory()
        let value = String(repeating: "x", count: 10_000_000) + "\u{1B}"
        try "DRAWTOGETHER_DATABASE_ID=\(value)\n".write(
            toFile: directory.path + "/.env", atomically: true, encoding: .utf8)
        let result = try runProcess(
            binary, ["list"], environment: Self.environment, currentDirectory: directory.path)
        #expect(result.status == 2)
        #expect(result.standardError.contains("the database id 'xxxx"))
        #expect(result.standardError.contains("… (10000001 bytes)"))
        #expect(result.standardError.utf8.count < 400, "\(result.standardError.prefix(500))")
    }

    @Test func aStoreThatIsNotUTF8IsRefusedAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        let result = try runProcess(
            "/bin/sh",
            [
                "-c",
                #"exec "$0" query 'INSERT INTO drawings DOCUMENTS (:d)' --args '{"d": {"_id": "a"}}' --store "$(printf 'st\377re')""#,
                binary,
            ],
            environment: Self.environment, currentDirectory: directory.path)
        #expect(result.status == 2)
        #expect(
            result.standardError.contains(
                #"the value of --store (argument 6) ('st\xFFre') is not valid UTF-8"#),
            "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)

        let variable = try runProcess(
            "/bin/sh", ["-c", #"DRAWTOGETHER_STORE="$(printf 'st\377re')" exec "$0" list"#, binary],
            environment: Self.environment, currentDirectory: directory.path)
        #expect(variable.status == 2)
        #expect(variable.standardError.contains(#"DRAWTOGETHER_STORE ('st\xFFre') is not valid UTF-8"#))
    }
}

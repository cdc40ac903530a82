import Foundation
import Glibc
import TestSupport
import Testing

/// `drawtogether doctor` in a real terminal (tmux) and against a real relay: a good setup
/// passes with exit 0; each problem it checks is named on its own line, and exits 1.
@Suite struct DoctorTests {
    static let binary = BuiltProducts.executable("drawtogether")
    private let home: TemporaryDirectory
    private let store: String

    init() throws {
        home = try TemporaryDirectory(prefix: "doctor")
        store = home.path + "/store"
        try SyncTestSupport.writeStrokes(
            ["a", "b"], document: "drawing-1", into: store + "/default/replica-1")
    }

    /// The outcome of doctor run in a tmux pane of the given size and environment.
    private func doctorInTerminal(
        _ arguments: [String], width: Int = 100, height: Int = 30, environment: [String: String] = [:]
    ) throws -> (status: Int32?, output: String) {
        let output = home.path + "/doctor-\(UUID().uuidString.prefix(8))"
        let record =
            "\"$0\" \"$@\" > \(output).out 2>&1; echo $? > \(output).tmp && mv \(output).tmp \(output).status"
        var variables = [
            "HOME": home.path, "XDG_RUNTIME_DIR": home.path, "XDG_DATA_HOME": home.path + "/data",
            "LC_ALL": "", "LC_CTYPE": "", "NO_COLOR": "",
        ]
        variables.merge(environment) { $1 }
        let tmux = try TmuxSession(
            ["/bin/sh", "-c", record, Self.binary, "doctor"] + arguments, width: width, height: height,
            environment: variables, currentDirectory: home.path)
        defer { tmux.kill() }
        let finished = ChildProcess.waitFor(timeout: .seconds(30)) {
            FileManager.default.fileExists(atPath: output + ".status")
        }
        let text = (try? String(contentsOfFile: output + ".out", encoding: .utf8)) ?? ""
        guard finished, let status = try? String(contentsOfFile: output + ".status", encoding: .utf8) else {
            return (nil, text)
        }
        return (Int32(status.trimmingCharacters(in: .whitespacesAndNewlines)), text)
    }

    private func lines(_ output: String, _ status: String, _ area: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter {
            $0.hasPrefix(status.padding(toLength: 9, withPad: " ", startingAt: 0) + area)
        }
    }

    /// A relay on a free loopback port with `token`; nil port if it did not start.
    private func startRelay(token: String) throws -> (ChildProcess, UInt16?) {
        let relay = try ChildProcess(
            Self.binary,
            ["serve", "--listen", "127.0.0.1:0", "--token", token, "--store", home.path + "/relay"],
            environment: SyncTestSupport.environment(home: home))
        _ = ChildProcess.waitFor { SyncTestSupport.listeningPort(in: relay.standardOutput) != nil }
        return (relay, SyncTestSupport.listeningPort(in: relay.standardOutput))
    }

    @Test func aGoodSetupPassesEveryCheckAndNeverPrintsTheToken() throws {
        guard TmuxSession.isAvailable else { return }
        let token = "the right token 42"
        let (relay, port) = try startRelay(token: token)
        let relayPort = try #require(port, "serve did not start: \(relay.standardError)")
        // An instance of the same database holds the replica and listens for local discovery.
        let instance = try ChildProcess(
            Self.binary, ["sync", "--store", store], environment: SyncTestSupport.environment(home: home))
        // Waits for discovery to listen, which starts after the replica's line ("peer ...").
        #expect(
            ChildProcess.waitFor { instance.standardError.contains("local instances find this one") },
            "\(instance.standardError)")
        // A good setup keeps the token off the command line (where `--token` is warned about).
        let tokenFile = home.path + "/token"
        FileManager.default.createFile(
            atPath: tokenFile, contents: Data((token + "\n").utf8), attributes: [.posixPermissions: 0o600])
        let result = try doctorInTerminal([
            "--store", home.path + "/mine", "--server", "tcp://127.0.0.1:\(relayPort)", "--token-file",
            tokenFile,
        ])
        let held = try doctorInTerminal(["--store", store])
        #expect(held.status == 0, "\(held.output)")
        #expect(held.output.contains("replica \(store)/default/replica-1: schema "), "\(held.output)")
        #expect(held.output.contains("1 drawing, open in process \(instance.pid)"), "\(held.output)")
        #expect(
            lines(held.output, "ok", "discovery").first?.contains("1 instance listening (peer ") == true,
            "\(held.output)")
        instance.send(SIGTERM)
        #expect(instance.waitForExit() == 0)
        #expect(result.status == 0, "\(result.output)")
        #expect(lines(result.output, "problem", "").isEmpty, "\(result.output)")
        for area in ["terminal", "store", "discovery", "settings", "network"] {
            #expect(!lines(result.output, "ok", area).isEmpty, "no ok line for \(area): \(result.output)")
        }
        #expect(result.output.contains("size 100x30"))
        #expect(result.output.contains("UTF-8 locale"))
        #expect(result.output.contains("store \(home.path)/mine (from --store)"))
        #expect(result.output.contains("no store at \(home.path)/mine yet"))
        #expect(result.output.contains("token set (from --token-file)"))
        #expect(lines(result.output, "ok", "network").first?.contains("accepts the token") == true)
        #expect(!result.output.contains(token))
        relay.send(SIGTERM)
        #expect(relay.waitForExit() == 0)
    }

    @Test func aTinyTerminalIsNamedAndFails() throws {
        guard TmuxSession.isAvailable else { return }
        let result = try doctorInTerminal(["--store", store], width: 15, height: 5)
        #expect(result.status == 1, "\(result.output)")
        let problems = lines(result.output, "problem", "terminal")
        #expect(problems.count == 1, "\(result.output)")
        #expect(
            problems.first?.contains("the terminal is 15x5, smaller than the 20x6 the canvas needs") == true)
    }

    @Test func aLocaleWithoutUTF8IsNamedAndFails() throws {
        guard TmuxSession.isAvailable else { return }
        let result = try doctorInTerminal(["--store", store], environment: ["LANG": "C"])
        #expect(result.status == 1, "\(result.output)")
        let problems = lines(result.output, "problem", "terminal")
        #expect(problems.count == 1, "\(result.output)")
        #expect(problems.first?.contains("the locale (LANG=C) is not UTF-8") == true)
        #expect(problems.first?.contains("set LANG=C.UTF-8") == true)
    }

    @Test func aStoreTheUserCannotWriteIsNamedAndFails() throws {
        // Root writes everywhere, so the check runs as nobody on a store root owns.
        let asNobody = geteuid() == 0
        if !asNobody { chmod(store + "/default/replica-1", 0o555) }
        defer { chmod(store + "/default/replica-1", 0o755) }
        var environment = SyncTestSupport.environment(home: home)
        environment["LANG"] = "C.UTF-8"
        let arguments = [Self.binary, "doctor", "--store", store, "--no-discovery"]
        let result =
            asNobody
            ? try runProcess(
                "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups"] + arguments,
                environment: environment, currentDirectory: "/")
            : try runProcess(arguments[0], Array(arguments.dropFirst()), environment: environment)
        #expect(result.status == 1)
        let problems = lines(result.standardOutput, "problem", "store")
        #expect(problems.count == 1, "\(result.standardOutput)")
        #expect(problems.first?.contains("is not writable by you") == true, "\(result.standardOutput)")
        #expect(problems.first?.contains("choose another store with --store") == true)
    }

    @Test func aWrongTokenIsRefusedByARealRelayAndFails() throws {
        let (relay, port) = try startRelay(token: "the relay's token")
        let relayPort = try #require(port, "serve did not start: \(relay.standardError)")
        let result = try runProcess(
            Self.binary,
            ["doctor", "--store", store, "--server", "tcp://127.0.0.1:\(relayPort)", "--token", "a guess"],
            environment: SyncTestSupport.environment(home: home))
        #expect(result.status == 1)
        let problems = lines(result.standardOutput, "problem", "network")
        #expect(problems.count == 1, "\(result.standardOutput)")
        #expect(problems.first?.contains("server tcp://127.0.0.1:\(relayPort) refused this peer") == true)
        #expect(problems.first?.contains("check --token on both") == true, "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("a guess"))
        relay.send(SIGTERM)
        #expect(relay.waitForExit() == 0)
    }
}

import RelayStore
import ReplicaSync
import TerminalCanvas
import Testing

@testable import drawtogether

/// `serve --postgres URL`: where the URL comes from, and how its failures are worded.
@Suite struct ServePostgresOptionTests {
    private func resolve(_ arguments: [String], environment: [String: String] = [:], dotEnv: String? = nil)
        throws -> Configuration
    {
        let options = try CommandLineArguments.parse(arguments).options
        return try Configuration.resolve(
            options: options, environment: ["HOME": "/home/ada"].merging(environment) { $1 },
            workingDirectory: "/work/dir"
        ) { path in path == "/work/dir/.env" ? dotEnv : nil }
    }

    private let serve = ["serve", "--listen", "127.0.0.1:7420", "--token", "a-long-enough-relay-token"]

    @Test func theURLComesFromTheFlagThenTheEnvironmentThenDotEnv() throws {
        let flag = "postgresql://relay@db-a/drawings"
        let variable = "postgresql://relay@db-b/drawings"
        let file = "postgresql://relay@db-c/drawings"
        #expect(try resolve(serve).postgresURL == nil)
        #expect(try resolve(serve + ["--postgres", flag]).postgresURL == flag)
        #expect(
            try resolve(serve + ["--postgres", flag], environment: ["DRAWTOGETHER_POSTGRES_URL": variable])
                .postgresURL == flag)
        #expect(
            try resolve(
                serve, environment: ["DRAWTOGETHER_POSTGRES_URL": variable],
                dotEnv: "DRAWTOGETHER_POSTGRES_URL=\(file)\n"
            ).postgresURL == variable)
        #expect(try resolve(serve, dotEnv: "DRAWTOGETHER_POSTGRES_URL=\(file)\n").postgresURL == file)
    }

    @Test func onlyServeTakesThePostgresFlag() {
        #expect(throws: CommandLineError.self) {
            _ = try CommandLineArguments.parse(["sync", "--postgres", "postgresql://relay@db/drawings"])
        }
    }

    @Test func failuresNameTheHostAndTheSettingButNeverThePassword() throws {
        let target = try PostgresTarget(url: "postgresql://relay:hunter22@db.example:5433/drawings")
        let failures = [
            PostgresError(
                kind: .connectionFailed, operation: "connecting", target: target.description,
                message: "FATAL:  password authentication failed for user \"relay\""),
            PostgresError(
                kind: .timedOut, operation: "connecting", target: target.description,
                message: "no answer within 10 s"),
            PostgresError(
                kind: .connectionLost, operation: "committing 3 events", target: target.description,
                message: "server closed the connection unexpectedly"),
        ]
        for failure in failures {
            let message = UserMessage.message(for: failure)
            #expect(message.first?.isLowercase == true, "\(message)")
            #expect(message.last != ".")
            #expect(message.contains("db.example:5433 (database drawings, user relay)"))
            #expect(!message.contains("hunter22"))
        }
        #expect(UserMessage.message(for: failures[0]).contains("check the user and password"))
        #expect(UserMessage.message(for: failures[0]).contains("DRAWTOGETHER_POSTGRES_URL"))
        #expect(UserMessage.message(for: failures[2]).contains("the relay's database is unreachable"))
        do {
            _ = try PostgresTarget(url: "postgresql://relay:s3cret@[::1/db")
            Issue.record("an unreadable URL was read")
        } catch {
            let message = UserMessage.message(for: error)
            #expect(
                message.hasPrefix(
                    "the PostgreSQL URL (--postgres or DRAWTOGETHER_POSTGRES_URL) cannot be read"))
            #expect(!message.contains("s3cret"))
        }
    }
}

/// A client whose relay says its database is unreachable shows it in the status line, escaped.
@Suite struct RelayProblemStatusTests {
    @Test func aRelaysDatabaseProblemIsTheSyncStateWhileConnected() {
        var status = SyncNodeStatus()
        status.peers = [SyncNodeStatus.Peer(peerID: 1, displayName: "relay", transport: .tcp)]
        status.isCaughtUp = true
        status.relayProblem = UserMessage.relayDatabaseUnreachable
        #expect(
            CanvasSession.syncStatus(flushError: nil, node: status, hasUnflushedEdits: false)
                == .error(reason: "relay: database unreachable"))
        status.relayProblem = "\u{1B}[2Jforged"
        #expect(
            CanvasSession.syncStatus(flushError: nil, node: status, hasUnflushedEdits: false)
                == .error(reason: "relay: \\u{1B}[2Jforged"))
        status.relayProblem = nil
        #expect(CanvasSession.syncStatus(flushError: nil, node: status, hasUnflushedEdits: false) == .inSync)
    }
}

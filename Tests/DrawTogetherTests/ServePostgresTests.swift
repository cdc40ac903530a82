import Foundation
import Glibc
import ReplicaCore
import ReplicaStore
import TestSupport
import Testing

/// Real `drawtogether serve --postgres` relays (child processes) on a real PostgreSQL started by
/// the tests, with real `drawtogether sync --once` clients over TCP, each with its own store.
@Suite struct ServePostgresTests {
    private let home: TemporaryDirectory
    private let token = "postgres-relay-token-0123456789"

    init() throws {
        home = try TemporaryDirectory(prefix: "serve-pg")
    }

    private var environment: [String: String] {
        SyncTestSupport.environment(
            home: home, extra: ["DRAWTOGETHER_TOKEN": token, "DRAWTOGETHER_SYNC_TIMEOUT": "20"])
    }

    /// A relay on `url`, once it printed the port it listens on.
    private func relay(_ url: String) throws -> (ChildProcess, UInt16) {
        try SyncTestSupport.serve(["--postgres", url], environment: environment)
    }

    private func syncArguments(_ store: String, _ port: UInt16) -> [String] {
        ["sync", "--once", "--no-discovery", "--server", "tcp://127.0.0.1:\(port)", "--store", store]
    }

    private func syncOnce(_ store: String, port: UInt16) throws -> ProcessResult {
        try runProcess(SyncTestSupport.binary, syncArguments(store, port), environment: environment)
    }

    /// Adds strokes to a drawing of a store (creating it), keeping the ones already there.
    private func addStrokes(_ keys: [String], document: String, into directory: String) throws {
        let replica = try Replica(directory: directory)
        let exists =
            !(try replica.execute(
                "SELECT * FROM drawings WHERE _id = :id", arguments: ["id": .string(document)]
            ).documents.isEmpty)
        if !exists, let first = keys.first {
            try replica.execute(
                "INSERT INTO drawings DOCUMENTS (:doc)",
                arguments: [
                    "doc": .object([
                        "_id": .string(document), "strokes": .object([first: .string("ink:\(first)")]),
                    ])
                ])
        }
        for key in keys.dropFirst(exists ? 0 : 1) {
            try replica.execute(
                "UPDATE drawings SET strokes.`\(key)` = :ink WHERE _id = :id",
                arguments: ["ink": .string("ink:\(key)"), "id": .string(document)])
        }
    }

    /// A new, empty store (so `sync --store` uses it as it is rather than a slot inside it).
    private func emptyStore(_ name: String) throws -> String {
        let path = home.path + "/" + name
        _ = try Replica(directory: path)
        return path
    }

    private func strokes(in store: String, document: String = "drawing-1") throws -> Int {
        SyncTestSupport.strokeCount(try SyncTestSupport.drawings(in: store), document: document)
    }

    @Test func twoRelaysOnOnePostgresConvergeAndARelayStartedLaterServesEverything() throws {
        let cluster = try PostgresCluster.shared.get()
        let url = cluster.url(database: try cluster.createDatabase())
        let (relayA, portA) = try relay(url)
        let (relayB, portB) = try relay(url)
        let first = home.path + "/first"
        let second = home.path + "/second"

        // Both clients draw into the same drawing, each through its own relay, at the same time.
        let rounds = 4
        let perRound = 50
        for round in 0..<rounds {
            let keys = (0..<perRound).map { "r\(round)-\($0)" }
            try addStrokes(keys.map { "a-\($0)" }, document: "drawing-1", into: first)
            try addStrokes(keys.map { "b-\($0)" }, document: "drawing-1", into: second)
            let clients = try [(first, portA), (second, portB)].map { store, port in
                try ChildProcess(SyncTestSupport.binary, syncArguments(store, port), environment: environment)
            }
            for client in clients {
                #expect(client.waitForExit() == 0, "\(client.standardError)")
            }
        }
        let total = 2 * rounds * perRound
        let converged = ChildProcess.waitFor(timeout: .seconds(30)) {
            _ = try? syncOnce(first, port: portA)
            _ = try? syncOnce(second, port: portB)
            return (try? strokes(in: first)) == total && (try? strokes(in: second)) == total
        }
        #expect(
            converged,
            "first has \((try? strokes(in: first)) ?? -1), second \((try? strokes(in: second)) ?? -1)")
        #expect(try SyncTestSupport.drawings(in: first) == SyncTestSupport.drawings(in: second))

        // A third relay, started now with nothing of its own, serves all of it to a new client.
        let (relayC, portC) = try relay(url)
        let third = try emptyStore("third")
        let result = try syncOnce(third, port: portC)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try SyncTestSupport.drawings(in: third) == SyncTestSupport.drawings(in: first))

        for relay in [relayA, relayB, relayC] {
            relay.send(SIGTERM)
            #expect(relay.waitForExit() == 0, "\(relay.standardError)")
        }
    }

    @Test func aKilledRelayLosesNothingItAcknowledged() throws {
        let cluster = try PostgresCluster.shared.get()
        let url = cluster.url(database: try cluster.createDatabase())
        let (relayA, portA) = try relay(url)
        let (relayB, portB) = try relay(url)
        let writer = home.path + "/writer"
        let reader = try emptyStore("reader")

        // Acknowledged, then the relay dies at once: every stroke is in PostgreSQL.
        try addStrokes((0..<150).map { "acked-\($0)" }, document: "drawing-1", into: writer)
        let acknowledged = try syncOnce(writer, port: portA)
        #expect(acknowledged.status == 0, "\(acknowledged.standardError)")
        relayA.send(SIGKILL)
        #expect(relayA.waitForExit() != nil)
        let read = try syncOnce(reader, port: portB)
        #expect(read.status == 0, "\(read.standardError)")
        #expect(try strokes(in: reader) == 150)

        // Killed while a client is sending: the client takes what was not acknowledged to the
        // other relay, and everything arrives.
        let (relayC, portC) = try relay(url)
        try addStrokes((0..<300).map { "late-\($0)" }, document: "drawing-1", into: writer)
        let client = try ChildProcess(
            SyncTestSupport.binary, syncArguments(writer, portC), environment: environment)
        _ = ChildProcess.waitFor { relayC.standardError.contains("connected to") }
        relayC.send(SIGKILL)
        // It would try the dead relay until its timeout; the user moves to the other one.
        client.send(SIGKILL)
        _ = client.waitForExit()
        let resent = try syncOnce(writer, port: portB)
        #expect(resent.status == 0, "\(resent.standardError)")
        let arrived = ChildProcess.waitFor(timeout: .seconds(20)) {
            _ = try? syncOnce(reader, port: portB)
            return (try? strokes(in: reader)) == 450
        }
        #expect(arrived, "the reader has \((try? strokes(in: reader)) ?? -1) of 450 strokes")
        relayB.send(SIGTERM)
        #expect(relayB.waitForExit() == 0)
    }

    @Test func postgresStoppedAndStartedWhileAClientWritesLosesNothing() throws {
        let cluster = try PostgresCluster.makePrivate()
        let url = cluster.url(database: try cluster.createDatabase())
        let (relayA, portA) = try relay(url)
        let writer = home.path + "/writer"
        try addStrokes((0..<40).map { "before-\($0)" }, document: "drawing-1", into: writer)
        #expect(try syncOnce(writer, port: portA).status == 0)

        try cluster.crash()
        _ = ChildProcess.waitFor { relayA.standardError.contains("database is unreachable") }
        #expect(relayA.standardError.contains("database is unreachable"), "\(relayA.standardError)")
        try addStrokes((0..<60).map { "during-\($0)" }, document: "drawing-1", into: writer)
        // The relay keeps the client and holds back its ack until the database is back.
        let client = try ChildProcess(
            SyncTestSupport.binary, syncArguments(writer, portA), environment: environment)
        _ = ChildProcess.waitFor { relayA.standardError.contains("connected to sync") }
        try cluster.start()
        #expect(client.waitForExit() == 0, "\(client.standardError)")
        #expect(relayA.waitForExit(timeout: .zero) == nil, "the relay died: \(relayA.standardError)")
        _ = ChildProcess.waitFor { relayA.standardError.contains("reachable again") }
        #expect(relayA.standardError.contains("reachable again"))

        // A relay started afterwards, and its client, get all of it.
        let (relayB, portB) = try relay(url)
        let reader = try emptyStore("reader")
        #expect(try syncOnce(reader, port: portB).status == 0)
        #expect(try strokes(in: reader) == 100)
        for relay in [relayA, relayB] {
            relay.send(SIGTERM)
            #expect(relay.waitForExit() == 0, "\(relay.standardError)")
        }
    }

    /// Started with a soft open-file limit of 64 under a higher hard one, the relay lifts the soft
    /// limit to the hard one and says how many clients that leaves room for.
    @Test func aRelayRaisesItsOpenFileLimitToTheHardLimitAndSaysHowManyClientsItHolds() throws {
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let hard = UInt64(limit.rlim_max)
        let cluster = try PostgresCluster.shared.get()
        let url = cluster.url(database: try cluster.createDatabase())
        let relay = try ChildProcess(
            "/bin/sh",
            [
                "-c",
                "ulimit -Sn \(min(64, hard)) && exec \"$0\" serve --listen 127.0.0.1:0 --postgres \"$1\"",
                SyncTestSupport.binary, url,
            ], environment: environment)
        defer {
            relay.send(SIGTERM)
            _ = relay.waitForExit()
        }
        #expect(ChildProcess.waitFor { SyncTestSupport.listeningPort(in: relay.standardOutput) != nil })
        #expect(
            relay.standardError.contains("open-file limit \(hard): room for about \(hard - 16) clients"),
            "\(relay.standardError)")
        let limits = try String(contentsOfFile: "/proc/\(relay.pid)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let numbers = line.split(separator: " ").compactMap { UInt64($0) }
        #expect(numbers == [hard, hard], "\(line)")
    }

    @Test func aWrongPasswordIsOneLineNamingTheHostAndExitsOne() throws {
        let cluster = try PostgresCluster.shared.get()
        let database = try cluster.createDatabase()
        try cluster.psql(
            "DO $$ BEGIN CREATE ROLE sketcher LOGIN PASSWORD 'right-pencil'; "
                + "EXCEPTION WHEN duplicate_object THEN NULL; END $$")
        let secret = "wrong-crayon-42"
        let result = try runProcess(
            SyncTestSupport.binary,
            [
                "serve", "--listen", "127.0.0.1:0", "--postgres",
                cluster.url(database: database, user: "sketcher", password: secret),
            ], environment: environment)
        #expect(result.status == 1)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(result.standardError.contains(cluster.socketDirectory))
        #expect(result.standardError.contains("check the user and password"))
        #expect(!result.standardError.contains(secret))
        #expect(result.standardOutput.isEmpty)
    }
}

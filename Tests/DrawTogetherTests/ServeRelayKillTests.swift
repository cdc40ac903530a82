import Foundation
import Glibc
import ReplicaCore
import ReplicaStore
import TestSupport
import Testing

/// The real `drawtogether serve` on its SQLite replica, which commits its clients' deltas a loop
/// turn at a time: SIGKILLed while many `sync --once` clients write, it loses nothing any client
/// saw acknowledged (a client exits 0 only once the relay acknowledged all it sent), and the
/// clients that were cut off resend the rest to the restarted relay.
@Suite struct ServeRelayKillTests {
    private let home: TemporaryDirectory
    private let token = "relay kill token"

    init() throws {
        home = try TemporaryDirectory(prefix: "serve-kill")
    }

    private var environment: [String: String] {
        SyncTestSupport.environment(
            home: home, extra: ["DRAWTOGETHER_TOKEN": token, "DRAWTOGETHER_SYNC_TIMEOUT": "20"])
    }

    private var relayStore: String { home.path + "/relay" }

    /// The relay on its store, once it printed the port it listens on.
    private func startRelay() throws -> (ChildProcess, UInt16) {
        try SyncTestSupport.serve(["--store", relayStore], environment: environment)
    }

    private func client(_ store: String, port: UInt16) throws -> ChildProcess {
        try ChildProcess(
            SyncTestSupport.binary,
            ["sync", "--once", "--no-discovery", "--server", "tcp://127.0.0.1:\(port)", "--store", store],
            environment: environment)
    }

    /// Every stroke key of every drawing in a store.
    private func strokeKeys(in store: String) throws -> Set<String> {
        var keys: Set<String> = []
        for drawing in try SyncTestSupport.drawings(in: store) {
            keys.formUnion(drawing["strokes"]?.objectValue?.keys.map { $0 } ?? [])
        }
        return keys
    }

    @Test func aRelayKilledWhileManyClientsWriteLosesNothingTheyWereAcknowledged() throws {
        var (relay, port) = try startRelay()
        // Eight writers on two drawings; some send a little, some a lot, all at once, twice.
        let writers = (0..<8).map { home.path + "/writer-\($0)" }
        var written: [String: Set<String>] = [:]
        var acknowledged: Set<String> = []
        var cutOff: [String] = []
        for round in 0..<2 {
            for (index, store) in writers.enumerated() {
                let keys = (0..<(index % 2 == 0 ? 20 : 600)).map { "w\(index)-r\(round)-\($0)" }
                try SyncTestSupport.writeStrokes(keys, document: "drawing-\(index % 2)", into: store)
                written[store, default: []].formUnion(keys)
            }
            let clients = try writers.map { try client($0, port: port) }
            if round == 0 {
                for (store, client) in zip(writers, clients) {
                    #expect(client.waitForExit() == 0, "\(client.standardError)")
                    acknowledged.formUnion(written[store] ?? [])
                }
                continue
            }
            // The relay dies as soon as the first client is acknowledged, the others mid-way.
            _ = ChildProcess.waitFor { clients.contains { $0.waitForExit(timeout: .zero) != nil } }
            relay.send(SIGKILL)
            #expect(relay.waitForExit() == SIGKILL)
            for (store, client) in zip(writers, clients) {
                // One still waiting would wait for the dead relay until its timeout.
                client.send(SIGKILL)
                if client.waitForExit() == 0 {
                    acknowledged.formUnion(written[store] ?? [])
                } else {
                    cutOff.append(store)
                }
            }
        }
        #expect(acknowledged.count > (20 + 600) * 4, "no client of the second round was acknowledged")

        // Restarted on the same store: everything acknowledged is there, before anyone resends.
        (relay, port) = try startRelay()
        let reader = home.path + "/reader"
        // A new, empty store (so `sync --store` uses it as it is rather than a slot inside it).
        _ = try Replica(directory: reader)
        let read = try runProcess(
            SyncTestSupport.binary,
            ["sync", "--once", "--no-discovery", "--server", "tcp://127.0.0.1:\(port)", "--store", reader],
            environment: environment)
        #expect(read.status == 0, "\(read.standardError)")
        let kept = try strokeKeys(in: reader)
        #expect(
            acknowledged.subtracting(kept).isEmpty, "lost \(acknowledged.subtracting(kept).count) strokes")

        // The clients that were cut off send the rest; then everything is there.
        for store in cutOff {
            let resent = try client(store, port: port)
            #expect(resent.waitForExit() == 0, "\(resent.standardError)")
        }
        let all = written.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        let arrived = ChildProcess.waitFor(timeout: .seconds(30)) {
            _ = try? client(reader, port: port).waitForExit()
            return (try? strokeKeys(in: reader)) == all
        }
        #expect(
            arrived, "the reader has \((try? strokeKeys(in: reader).count) ?? -1) of \(all.count) strokes")
        relay.send(SIGTERM)
        #expect(relay.waitForExit() == 0)
    }
}

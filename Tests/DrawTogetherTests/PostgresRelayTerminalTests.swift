import Foundation
import Glibc
import TestSupport
import Testing

/// Two app instances in tmux, each on its own `drawtogether serve --postgres` relay, both relays
/// on one real PostgreSQL started by the test: each sees the other's strokes and cursor, the
/// cursor of one that was there first included, before it moves again.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct PostgresRelayTerminalTests {
    @Test func terminalsOnTwoRelaysOfOnePostgresSeeEachOthersStrokesAndCursors() throws {
        let home = try TemporaryDirectory(prefix: "pg-relay-e2e")
        let token = "a shared secret for the postgres relay test"
        let cluster = try PostgresCluster.shared.get()
        let url = cluster.url(database: try cluster.createDatabase())
        let relays = try (0..<2).map { _ in
            try ChildProcess(
                SyncTestSupport.binary, ["serve", "--listen", "127.0.0.1:0", "--postgres", url],
                environment: SyncTestSupport.environment(home: home, extra: ["DRAWTOGETHER_TOKEN": token]))
        }
        defer {
            for relay in relays {
                relay.send(SIGTERM)
                _ = relay.waitForExit()
            }
        }
        var ports: [UInt16] = []
        for relay in relays {
            #expect(
                ChildProcess.waitFor { SyncTestSupport.listeningPort(in: relay.standardOutput) != nil },
                "serve did not start: \(relay.standardError)")
            ports.append(try #require(SyncTestSupport.listeningPort(in: relay.standardOutput)))
        }
        func app(on port: UInt16) throws -> AppInstance {
            let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
            return try AppInstance(
                runtimeDirectory: runtime.path,
                extraArguments: ["--no-discovery", "--server", "tcp://127.0.0.1:\(port)"], width: 120,
                environment: ["DRAWTOGETHER_TOKEN": token])
        }
        /// A name tag ("test-" and a short id) on the canvas rows, not in the message line.
        func showsTag(_ screen: [String], row: Int) -> Bool {
            screen.count > row + 2 && screen[row].contains("test-")
        }

        // A is on relay 1 and puts its pointer somewhere before B starts.
        let a = try app(on: ports[0])
        try a.tmux.waitUntil { $0.last?.contains("relay 127.0.0.1:\(ports[0])") == true }
        try a.tmux.mouseMove(x: 20, y: 6)
        // B, on relay 2, is shown A's cursor although A does not move again.
        let b = try app(on: ports[1])
        try b.tmux.waitUntil { $0.last?.contains("relay 127.0.0.1:\(ports[1])") == true }
        try b.tmux.waitUntil(timeout: .seconds(20)) { showsTag($0, row: 6) }

        // Strokes both ways, each through its own relay and PostgreSQL.
        try a.drag([(6, 10), (16, 10), (26, 10)])
        try b.tmux.waitUntil(timeout: .seconds(20)) { screen in
            [6, 16, 26].allSatisfy { b.hasInk(x: $0, y: 10, in: screen) }
        }
        try b.drag([(50, 14), (60, 14), (70, 14)])
        try a.tmux.waitUntil(timeout: .seconds(20)) { screen in
            [50, 60, 70].allSatisfy { a.hasInk(x: $0, y: 14, in: screen) }
        }
        // B's cursor, where B moves it, on A's canvas.
        try b.tmux.mouseMove(x: 90, y: 4)
        try a.tmux.waitUntil(timeout: .seconds(20)) { showsTag($0, row: 4) }

        // Both end with both strokes committed in their own replicas, and the same drawing.
        func strokes(of app: AppInstance) -> Int {
            let drawings = (try? SyncTestSupport.drawings(in: app.store.path + "/default/replica-1")) ?? []
            return SyncTestSupport.strokeCount(drawings, document: "drawing-1")
        }
        #expect(ChildProcess.waitFor(timeout: .seconds(20)) { strokes(of: a) == 2 && strokes(of: b) == 2 })
        #expect(try b.quit() == 0)
        #expect(try a.quit() == 0)
        let exported = try a.exportText()
        #expect(exported.standardOutput == (try b.exportText()).standardOutput)
        #expect(AppInstance.hasInk(exported.standardOutput))
    }
}

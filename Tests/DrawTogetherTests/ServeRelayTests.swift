import Foundation
import Glibc
import TestSupport
import Testing

/// The real `drawtogether serve` relay with real `drawtogether sync --once` clients, each with its
/// own store: they converge through the relay alone, and a wrong token is refused with the reason.
@Suite struct ServeRelayTests {
    private let home: TemporaryDirectory
    private let relay: ChildProcess
    private let port: UInt16
    private let token = "relay token"

    init() throws {
        home = try TemporaryDirectory(prefix: "serve-home")
        relay = try ChildProcess(
            SyncTestSupport.binary,
            ["serve", "--listen", "127.0.0.1:0", "--token", token, "--store", home.path + "/relay"],
            environment: SyncTestSupport.environment(home: home))
        let relay = relay
        _ = ChildProcess.waitFor { SyncTestSupport.listeningPort(in: relay.standardOutput) != nil }
        port = SyncTestSupport.listeningPort(in: relay.standardOutput) ?? 0
    }

    private func syncOnce(store: String, token: String? = nil) throws -> ProcessResult {
        try runProcess(
            SyncTestSupport.binary,
            [
                "sync", "--once", "--no-discovery", "--server", "tcp://127.0.0.1:\(port)", "--token",
                token ?? self.token,
                "--store", store,
            ],
            environment: SyncTestSupport.environment(home: home))
    }

    @Test func twoClientsWithSeparateStoresConvergeThroughTheRelay() throws {
        #expect(port != 0, "serve printed no listening address: \(relay.standardError)")
        let first = home.path + "/first"
        let second = home.path + "/second"
        try SyncTestSupport.writeStrokes((0..<200).map { "first-\($0)" }, document: "drawing-1", into: first)
        try SyncTestSupport.writeStrokes(
            (0..<150).map { "second-\($0)" }, document: "drawing-2", into: second)

        for store in [first, second, first] {
            let result = try syncOnce(store: store)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("in sync with 1 peer"))
        }
        let firstDrawings = try SyncTestSupport.drawings(in: first)
        #expect(try SyncTestSupport.drawings(in: second) == firstDrawings)
        #expect(SyncTestSupport.strokeCount(firstDrawings, document: "drawing-1") == 200)
        #expect(SyncTestSupport.strokeCount(firstDrawings, document: "drawing-2") == 150)

        relay.send(SIGTERM)
        #expect(relay.waitForExit() == 0)
        #expect(relay.standardError.contains("stopping"))
    }

    @Test func aClientWithTheWrongTokenExitsNonZeroWithTheRefusal() throws {
        #expect(port != 0, "serve printed no listening address: \(relay.standardError)")
        let store = home.path + "/intruder"
        try SyncTestSupport.writeStrokes(["planted"], document: "graffiti", into: store)
        let result = try syncOnce(store: store, token: "guessed")
        #expect(result.status == 1)
        #expect(result.standardError.contains("authentication failed"))
        #expect(result.standardError.contains("token"))
        #expect(
            SyncTestSupport.strokeCount(try SyncTestSupport.drawings(in: store), document: "graffiti") == 1)
        relay.send(SIGINT)
        #expect(relay.waitForExit() == 0)
        // A stranger's failed handshake is logged by its address, escaped and rate-limited.
        #expect(relay.standardError.contains("handshake from 127.0.0.1:"))
        #expect(relay.standardError.contains("failed: authentication failed"))
    }
}

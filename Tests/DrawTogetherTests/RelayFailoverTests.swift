import EventRuntime
import Foundation
import Glibc
import ReplicaCore
import ReplicaStore
import ReplicaSync
import TestSupport
import Testing

/// A real `drawtogether serve`, its port and the replica it keeps (`STORE/default/replica-1`).
struct RelayChild {
    let process: ChildProcess
    let port: UInt16
    let replica: String

    init(home: TemporaryDirectory, name: String, token: String) throws {
        let store = home.path + "/" + name
        process = try ChildProcess(
            SyncTestSupport.binary, ["serve", "--listen", "127.0.0.1:0", "--token", token, "--store", store],
            environment: SyncTestSupport.environment(home: home))
        let process = process
        _ = ChildProcess.waitFor { SyncTestSupport.listeningPort(in: process.standardOutput) != nil }
        port = try #require(
            SyncTestSupport.listeningPort(in: process.standardOutput),
            "serve did not start: \(process.standardError)")
        replica = store + "/default/replica-1"
    }

    var url: String { "tcp://127.0.0.1:\(port)" }
    var endpoint: SocketEndpoint { .tcp(host: "127.0.0.1", port: port) }

    /// The strokes of a drawing in the relay's replica, read while it runs.
    func strokeCount(_ document: String) -> Int {
        guard let drawings = try? SyncTestSupport.drawings(in: replica) else { return 0 }
        return SyncTestSupport.strokeCount(drawings, document: document)
    }
}

/// Clients given several relays over real sockets: one whose relay is SIGKILLed moves to the
/// next and its strokes arrive there; a list whose first relay is down syncs through the second,
/// given as repeated `--server` flags or as a comma-separated `DRAWTOGETHER_SERVER_URL`.
@Suite struct RelayFailoverTests {
    private let token = "failover token"

    @Test func aClientWhoseRelayIsKilledMovesToTheNextAndItsStrokesArriveThere() throws {
        let home = try TemporaryDirectory(prefix: "failover")
        let relayA = try RelayChild(home: home, name: "relay-a", token: token)
        let relayB = try RelayChild(home: home, name: "relay-b", token: token)
        let loop = try PollEventLoop(clock: .system)
        let replica = try Replica(directory: home.path + "/client")
        try replica.addSubscription(ReplicaSyncAdapter.drawings)
        let adapter = ReplicaSyncAdapter(replica: replica)
        let node = SyncNode(
            loop: loop, transport: SocketTransport(loop: loop), replica: adapter,
            configuration: SyncSessionConfiguration(
                databaseID: "default", peerID: replica.peerID.rawValue, displayName: "failover client",
                token: token, encrypts: false, subscriptions: adapter.subscriptions),
            random: SplitMix64(seed: 5))
        adapter.forwardLocalCommits(to: node)
        defer {
            node.shutdown()
            loop.run(until: { false }, timeout: .milliseconds(200))
        }
        node.connect(toFirstOf: [relayA.endpoint, relayB.endpoint])

        try write(replica, range: 0..<100)
        #expect(
            loop.run(until: { relayA.strokeCount("drawing-1") == 100 }, timeout: .seconds(30)),
            "\(relayA.process.standardError)")
        #expect(node.status.peers.map(\.dialled) == [relayA.endpoint])
        #expect(relayB.strokeCount("drawing-1") == 0, "one relay at a time")

        relayA.process.send(SIGKILL)
        #expect(relayA.process.waitForExit() == SIGKILL)
        // Strokes written while the client is between relays, and after it moved.
        try write(replica, range: 100..<150)
        #expect(
            loop.run(until: { node.status.peers.first?.dialled == relayB.endpoint }, timeout: .seconds(30)),
            "\(relayB.process.standardError)")
        try write(replica, range: 150..<200)
        #expect(
            loop.run(until: { relayB.strokeCount("drawing-1") == 200 }, timeout: .seconds(30)),
            "B has \(relayB.strokeCount("drawing-1")) of 200")
        relayB.process.send(SIGTERM)
        #expect(relayB.process.waitForExit() == 0)
    }

    @Test func aListWhoseFirstRelayIsDownSyncsThroughTheSecond() throws {
        let home = try TemporaryDirectory(prefix: "failover-list")
        let relay = try RelayChild(home: home, name: "relay", token: token)
        let down = "tcp://127.0.0.1:\(SyncTestSupport.closedPort())"
        let flags = home.path + "/flags"
        try SyncTestSupport.writeStrokes((0..<30).map { "flag-\($0)" }, document: "by-flags", into: flags)
        let byFlags = try runProcess(
            SyncTestSupport.binary,
            ["sync", "--once", "--no-discovery", "--server", down, "--server", relay.url, "--store", flags],
            environment: SyncTestSupport.environment(home: home, extra: ["DRAWTOGETHER_TOKEN": token]))
        #expect(byFlags.status == 0, "\(byFlags.standardError)")
        #expect(byFlags.standardError.contains("cannot reach 127.0.0.1:"))
        #expect(byFlags.standardError.contains("in sync with 1 peer"))

        let fromEnvironment = home.path + "/env"
        try SyncTestSupport.writeStrokes(
            (0..<20).map { "env-\($0)" }, document: "by-env", into: fromEnvironment)
        let byEnvironment = try runProcess(
            SyncTestSupport.binary, ["sync", "--once", "--no-discovery", "--store", fromEnvironment],
            environment: SyncTestSupport.environment(
                home: home,
                extra: ["DRAWTOGETHER_TOKEN": token, "DRAWTOGETHER_SERVER_URL": "\(down), \(relay.url)"]))
        #expect(byEnvironment.status == 0, "\(byEnvironment.standardError)")
        #expect(relay.strokeCount("by-flags") == 30)
        #expect(relay.strokeCount("by-env") == 20)
        // The second client got the first's drawing from the relay too.
        #expect(
            SyncTestSupport.strokeCount(
                try SyncTestSupport.drawings(in: fromEnvironment), document: "by-flags") == 30)
        relay.process.send(SIGTERM)
        #expect(relay.process.waitForExit() == 0)
    }

    @Test func aBadListIsRefusedNamingTheItem() throws {
        let home = try TemporaryDirectory(prefix: "failover-bad")
        let result = try runProcess(
            SyncTestSupport.binary, ["sync", "--once", "--no-discovery", "--store", home.path + "/s"],
            environment: SyncTestSupport.environment(
                home: home,
                extra: ["DRAWTOGETHER_TOKEN": token, "DRAWTOGETHER_SERVER_URL": "tcp://a:7420,,tcp://b:7420"])
        )
        #expect(result.status == 2)
        #expect(
            result.standardError.contains(
                "the list of server URLs 'tcp://a:7420,,tcp://b:7420' (from DRAWTOGETHER_SERVER_URL in the environment) is not valid: item 2 of 3 is empty"
            ), "\(result.standardError)")
    }

    private func write(_ replica: Replica, range: Range<Int>) throws {
        for index in range {
            try replica.execute(
                "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE",
                arguments: [
                    "doc": .object([
                        "_id": .string("drawing-1"),
                        "strokes": .object(["s-\(index)": .string("ink \(index)")]),
                    ])
                ])
        }
    }
}

import EventRuntime
import Foundation
import Glibc
import ReplicaCore
import ReplicaStore
import ReplicaSync
import TestSupport
import Testing

/// A real `drawtogether sync` child, SIGKILLed while an in-process peer streams strokes to it,
/// then restarted on the same store: it resumes from version vectors and ends up with
/// everything, and nothing either side committed is lost.
@Suite struct SyncKillTests {
    private let token = "kill token"

    @Test func aPeerKilledMidSyncAndRestartedConvergesWithoutLosingCommits() throws {
        let home = try TemporaryDirectory(prefix: "sync-kill")
        let loop = try PollEventLoop(clock: .system)
        let a = try Replica(directory: home.path + "/a")
        try a.addSubscription(ReplicaSyncAdapter.drawings)
        let adapter = ReplicaSyncAdapter(replica: a)
        let node = SyncNode(
            loop: loop, transport: SocketTransport(loop: loop), replica: adapter,
            configuration: SyncSessionConfiguration(
                databaseID: "default", peerID: a.peerID.rawValue, displayName: "in-process peer",
                token: token,
                encrypts: false, subscriptions: adapter.subscriptions),
            random: SplitMix64(seed: 11))
        adapter.forwardLocalCommits(to: node)
        guard case .tcp(_, let port) = try node.listen(on: .tcp(host: "127.0.0.1", port: 0)) else { return }

        // B's own earlier work, committed before any sync: it must survive and reach A.
        let storeB = home.path + "/b"
        try SyncTestSupport.writeStrokes((0..<50).map { "b-\($0)" }, document: "from-b", into: storeB)
        let arguments = [
            "sync", "--no-discovery", "--peer", "127.0.0.1:\(port)", "--token", token, "--store", storeB,
        ]
        let environment = SyncTestSupport.environment(home: home)
        var child = try ChildProcess(SyncTestSupport.binary, arguments, environment: environment)
        #expect(
            loop.run(until: { node.status.peers.count == 1 }, timeout: .seconds(30)), "\(child.standardError)"
        )

        // Stream strokes and kill B while deltas are still unacknowledged.
        var written = 0
        var killedMidSync = false
        for batch in 0..<20 {
            try write(a, batch: batch, count: 100)
            written += 100
            loop.runOnce(maximumWait: .zero)
            if batch == 5 {
                killedMidSync = node.status.pendingDeltaCount > 0
                child.send(SIGKILL)
            }
        }
        #expect(child.waitForExit() == SIGKILL)
        #expect(loop.run(until: { node.status.peers.isEmpty }, timeout: .seconds(30)))

        child = try ChildProcess(SyncTestSupport.binary, arguments, environment: environment)
        let settled = loop.run(
            until: {
                let status = node.status
                return status.peers.count == 1 && status.isCaughtUp && status.pendingDeltaCount == 0
                    && Self.strokes(in: a, document: "from-b") == 50
            }, timeout: .seconds(30))
        #expect(settled, "\(child.standardError)")
        child.send(SIGTERM)
        #expect(child.waitForExit() == 0)
        #expect(child.standardError.contains("terminated, saying goodbye"))

        let expected = try a.execute("SELECT * FROM drawings").documents
        #expect(try SyncTestSupport.drawings(in: storeB) == expected)
        #expect(SyncTestSupport.strokeCount(expected, document: "drawing-1") == written)
        #expect(SyncTestSupport.strokeCount(expected, document: "from-b") == 50)
        // Recorded, not asserted: whether the kill landed while a delta was in flight is timing.
        if !killedMidSync { print("note: B was killed between deltas this run") }
    }

    private func write(_ replica: Replica, batch: Int, count: Int) throws {
        let strokes = Dictionary(
            uniqueKeysWithValues: (0..<count).map { ("a-\(batch)-\($0)", DocumentValue.string("ink")) })
        try replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE",
            arguments: ["doc": .object(["_id": .string("drawing-1"), "strokes": .object(strokes)])])
    }

    private static func strokes(in replica: Replica, document: String) -> Int {
        SyncTestSupport.strokeCount(
            (try? replica.execute("SELECT * FROM drawings").documents) ?? [], document: document)
    }
}

import EventRuntime
import Foundation
import Glibc
import ReplicaSync
import TestSupport
import Testing

@Suite(.serialized) struct SyncNodeDiscoveryTests {
    private let loop: PollEventLoop

    init() throws {
        loop = try PollEventLoop(clock: .system)
    }

    private func makeNode(peer: UInt64) -> (SyncNode, InMemorySyncReplica) {
        makeSyncNode(peer: peer, loop: loop, transport: SocketTransport(loop: loop), token: "")
    }

    @Test func threePeersInOneRendezvousDirectoryFindEachOtherAndConverge() throws {
        let directory = try TemporaryDirectory()
        let nodes = (1...3).map { makeNode(peer: UInt64($0)) }
        for (node, _) in nodes {
            try node.startLocalDiscovery(in: directory.path, rescanInterval: .milliseconds(100))
        }
        #expect(loop.run(until: { nodes.allSatisfy { $0.0.status.peers.count == 2 } }, timeout: .seconds(20)))
        for (index, (node, replica)) in nodes.enumerated() {
            replica.write(document: "drawing-1", key: "from-\(index)", value: "hi")
            node.localCommitted()
        }
        #expect(
            loop.run(
                until: {
                    nodes.allSatisfy {
                        $0.1.contents == nodes[0].1.contents
                            && $0.1.contents["drawings/drawing-1"]?.count == 3
                    }
                }, timeout: .seconds(20)))
        for (node, _) in nodes { node.shutdown() }
    }

    @Test func theSocketOfADeadPeerIsRemoved() throws {
        let directory = try TemporaryDirectory()
        // A socket file nobody listens on: what a killed peer leaves behind.
        let stale = directory.path + "/0000000000000001.sock"
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(stale.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        close(descriptor)
        #expect(bound == 0 && FileManager.default.fileExists(atPath: stale))
        let (node, _) = makeNode(peer: 2)
        try node.startLocalDiscovery(in: directory.path, rescanInterval: .milliseconds(100))
        #expect(loop.run(until: { !FileManager.default.fileExists(atPath: stale) }, timeout: .seconds(20)))
        node.shutdown()
    }

    @Test func theRendezvousDirectoryIsPrivateAndPerDatabase() throws {
        let runtime = try TemporaryDirectory()
        let path = try SyncNode.rendezvousDirectory(
            databaseID: "team/a", environment: ["XDG_RUNTIME_DIR": runtime.path])
        #expect(path == runtime.path + "/drawtogether/team_a")
        var info = stat()
        #expect(stat(runtime.path + "/drawtogether", &info) == 0 && info.st_mode & 0o777 == 0o700)
    }

    @Test func aLooserDatabaseFolderInTheRendezvousDirectoryIsMadePrivate() throws {
        let runtime = try TemporaryDirectory()
        let base = runtime.path + "/drawtogether"
        #expect(mkdir(base, 0o700) == 0)
        #expect(mkdir(base + "/team", 0o700) == 0)
        chmod(base + "/team", 0o755)  // as umask 022 and mkdir 0777 would have made it
        let path = try SyncNode.rendezvousDirectory(
            databaseID: "team", environment: ["XDG_RUNTIME_DIR": runtime.path])
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o700)
    }
}

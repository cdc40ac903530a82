import Foundation
import Glibc
import ReplicaCore
import ReplicaStore
import TestSupport
import Testing

/// Stores, environments and ports for the tests that run `drawtogether sync` and `serve`.
enum SyncTestSupport {
    static let binary = BuiltProducts.executable("drawtogether")

    /// The test's environment without any DrawTogether setting, with HOME and XDG_RUNTIME_DIR in
    /// `home`, so local discovery only meets the instances this test starts.
    static func environment(home: TemporaryDirectory, extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("DRAWTOGETHER_") }
        environment["HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = home.path
        environment["XDG_DATA_HOME"] = home.path + "/data"
        return environment.merging(extra) { $1 }
    }

    /// Writes strokes into a store directory in-process and closes it again (releasing its lock),
    /// the way a user's earlier session would have left it.
    static func writeStrokes(_ keys: [String], document: String, into directory: String) throws {
        let replica = try Replica(directory: directory)
        let strokes = Dictionary(uniqueKeysWithValues: keys.map { ($0, DocumentValue.string("ink:\($0)")) })
        try replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE",
            arguments: ["doc": .object(["_id": .string(document), "strokes": .object(strokes)])])
    }

    /// `SELECT * FROM drawings` of a store, read while nobody (or anybody) writes it.
    static func drawings(in directory: String) throws -> [[String: DocumentValue]] {
        try Replica.openReadOnly(directory: directory).execute("SELECT * FROM drawings").documents
    }

    static func strokeCount(_ drawings: [[String: DocumentValue]], document: String) -> Int {
        drawings.first { $0["_id"] == .string(document) }?["strokes"]?.objectValue?.count ?? 0
    }

    /// A loopback port nothing listens on: bound to find a free one, then closed.
    static func closedPort() -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// The port in `listening on HOST:PORT`, once the line has been printed.
    static func listeningPort(in output: String) -> UInt16? {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
            let colon = line.lastIndex(of: ":")
        else { return nil }
        return UInt16(line[line.index(after: colon)...])
    }

    /// `drawtogether serve --listen 127.0.0.1:0` with `arguments`, once it printed the port it
    /// listens on (or exited: then the port is 0, and the test has already failed saying why).
    static func serve(_ arguments: [String], environment: [String: String]) throws -> (ChildProcess, UInt16) {
        let relay = try ChildProcess(
            binary, ["serve", "--listen", "127.0.0.1:0"] + arguments, environment: environment)
        _ = ChildProcess.waitFor {
            listeningPort(in: relay.standardOutput) != nil || relay.waitForExit(timeout: .zero) != nil
        }
        let port = listeningPort(in: relay.standardOutput) ?? 0
        #expect(port != 0, "serve printed no listening address: \(relay.standardError)")
        return (relay, port)
    }
}

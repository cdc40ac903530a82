import EventRuntime
import Foundation
import ReplicaSync
import TestSupport
import Testing

/// A relay asked to listen where another process already does fails at once, says what to do,
/// and leaves no replica behind: the address is claimed before the store is touched.
@Suite struct ServeAddressInUseTests {
    @Test func serveOnABusyPortFailsBeforeCreatingItsReplica() throws {
        let home = try TemporaryDirectory(prefix: "serve-busy")
        let occupant = try ListeningSocket(binding: .tcp(host: "127.0.0.1", port: 0))
        guard case .tcp(_, let port) = occupant.endpoint else {
            Issue.record("a TCP socket has no port: \(occupant.endpoint)")
            return
        }
        let store = home.path + "/relay"
        let result = try runProcess(
            SyncTestSupport.binary,
            ["serve", "--listen", "127.0.0.1:\(port)", "--token", "t", "--store", store],
            environment: SyncTestSupport.environment(home: home))
        #expect(result.status == 1)
        #expect(result.standardError.contains("Address already in use"))
        #expect(result.standardError.contains("choose another address"))
        #expect(!FileManager.default.fileExists(atPath: store))
        withExtendedLifetime(occupant) {}
    }
}

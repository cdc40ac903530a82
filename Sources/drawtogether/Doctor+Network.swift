import EventRuntime
import FoundationEssentials
import Glibc
import ReplicaStore
import ReplicaSync

extension Doctor {
    /// How long doctor waits for each configured peer or relay to answer the handshake.
    static let networkTimeout: Duration = .seconds(5)

    /// Each `--peer` and each `--server` relay: dialled with the configured token through a real
    /// handshake, from a throwaway replica that subscribes to nothing, so no drawing is sent
    /// either way and the user's replica is not touched.
    static func network(_ configuration: Configuration) -> [DoctorFinding] {
        let targets =
            configuration.peers.map { ("peer \($0)", $0) }
            + configuration.servers.map { ("server tcp://\($0)", $0) }
        guard !targets.isEmpty else { return [] }
        do {
            return try probe(targets, configuration: configuration)
        } catch {
            return [.problem(.network, "cannot start the check: " + UserMessage.message(for: error))]
        }
    }

    private enum Answer {
        case accepted(name: String)
        case refused(SyncCloseReason)
        case unreachable(String)
    }

    private static func probe(_ targets: [(String, HostPort)], configuration: Configuration) throws
        -> [DoctorFinding]
    {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "drawtogether-doctor-\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let replica = try Replica(directory: scratch.path)
        let adapter = ReplicaSyncAdapter(replica: replica)
        let loop = try PollEventLoop(clock: .system)
        let session = SyncSessionConfiguration(
            databaseID: configuration.databaseID, peerID: replica.peerID.rawValue,
            displayName: PeerWiring.displayName("doctor"), token: configuration.token ?? "", encrypts: false,
            subscriptions: adapter.subscriptions)
        let node = SyncNode(
            loop: loop, transport: SocketTransport(loop: loop), replica: adapter, configuration: session)
        var answers: [SocketEndpoint: Answer] = [:]
        node.onEvent = { event in
            switch event {
            case .connected(let peer, let endpoint, true):
                answers[endpoint] = answers[endpoint] ?? .accepted(name: peer.displayName)
            case .disconnected(_, let endpoint, true, let reason, _) where reason.isRefusal:
                answers[endpoint] = answers[endpoint] ?? .refused(reason)
            case .unreachable(let endpoint, let problem):
                answers[endpoint] = answers[endpoint] ?? .unreachable(problem)
            default:
                break
            }
        }
        let endpoints = targets.map { PeerWiring.endpoint($0.1) }
        for endpoint in endpoints { node.connect(to: endpoint) }
        _ = loop.run(until: { endpoints.allSatisfy { answers[$0] != nil } }, timeout: networkTimeout)
        node.shutdown()
        _ = loop.run(until: { false }, timeout: .milliseconds(200))

        return zip(targets, endpoints).map { target, endpoint in
            let what = target.0
            switch answers[endpoint] {
            case .accepted(let name):
                return .ok(.network, "\(what) answers and accepts the token (\(name))")
            case .refused(let reason):
                return .problem(.network, "\(what) refused this peer: \(UserMessage.message(for: reason))")
            case .unreachable(let problem):
                return .problem(
                    .network,
                    "cannot reach \(what): \(problem); check the address and that the peer or relay is running"
                )
            case nil:
                return .problem(
                    .network,
                    "\(what) did not answer within \(networkTimeout); check the address, a firewall, and that it is a drawtogether peer"
                )
            }
        }
    }
}

import EventRuntime
import Glibc
import ReplicaCore
import ReplicaStore
import ReplicaSync

/// The live pieces of a syncing process, wired from the configuration: the replica (next free
/// slot), its sync adapter subscribed to `drawings`, and a `SyncNode` on one event loop that
/// listens on `--listen`, dials every `--peer` and one of the `--server` relays (the first that
/// answers, the next when it is lost), and (when asked) finds the other instances of the
/// database on this machine.
final class PeerWiring {
    /// A plain peer, or the relay (which also forwards presence between its clients).
    enum Role {
        case peer
        case relay
    }

    let loop: PollEventLoop
    let replica: Replica
    let adapter: ReplicaSyncAdapter
    let node: SyncNode
    /// Snapshot steps (and compaction) when the loop is idle, never inside a commit.
    let idleSteps: ReplicaIdleSteps
    /// Each `--peer`, each kept connected.
    let peerTargets: [SocketEndpoint]
    /// The `--server` relays in the order given: one connection, to the first that answers.
    let relayTargets: [SocketEndpoint]
    /// `--listen`, bound before anything else, so an address in use fails before a replica is
    /// opened or created; served from `start`.
    private let listener: ListeningSocket?
    private let configuration: Configuration

    convenience init(configuration: Configuration, role: Role, displayName: String) throws {
        try self.init(configuration: configuration, role: role) { _ in displayName }
    }

    /// `displayName` gets this replica's peer id, for names that show which replica is which.
    init(configuration: Configuration, role: Role, displayName: (PeerID) -> String) throws {
        self.configuration = configuration
        DescriptorLimit.raiseToHardLimit()
        listener = try configuration.listen.map { try ListeningSocket(binding: Self.endpoint($0)) }
        loop = try PollEventLoop(clock: .system)
        replica = try configuration.replicaLocation.openForWriting()
        try replica.addSubscription(ReplicaSyncAdapter.drawings)
        adapter = ReplicaSyncAdapter(replica: replica)
        idleSteps = ReplicaIdleSteps(replica: replica, loop: loop)
        let session = SyncSessionConfiguration(
            databaseID: configuration.databaseID, peerID: replica.peerID.rawValue,
            displayName: displayName(replica.peerID),
            token: configuration.token ?? "", encrypts: false, subscriptions: adapter.subscriptions)
        var options = SyncNode.Options()
        options.forwardsPresence = role == .relay
        options.servesOnlyRemoteSubscriptions = role == .relay
        node = SyncNode(
            loop: loop, transport: SocketTransport(loop: loop), replica: adapter, configuration: session,
            options: options)
        adapter.forwardLocalCommits(to: node)
        // A relay commits what its clients send a loop turn at a time (one transaction each).
        if role == .relay { adapter.commitInGroups(reportingTo: node) }
        peerTargets = configuration.peers.map(Self.endpoint)
        relayTargets = configuration.servers.map(Self.endpoint)
    }

    /// Starts listening and dialling; returns the addresses listened on (a port 0 resolved).
    /// With `relaySubscriptions` (the app), the relays are asked for the listing of `drawings`
    /// and subscribed to those documents only; without, to the whole collection.
    func start(discovery: Bool, relaySubscriptions: [SyncSubscription]? = nil) throws -> [SocketEndpoint] {
        var listening: [SocketEndpoint] = []
        if let listener {
            listening.append(try node.listen(on: listener))
        }
        for target in peerTargets { node.connect(to: target) }
        if let relaySubscriptions {
            node.connect(
                toFirstOf: relayTargets, subscribing: relaySubscriptions,
                listing: ReplicaSyncAdapter.drawings.collection)
        } else {
            node.connect(toFirstOf: relayTargets)
        }
        if discovery {
            let directory = try SyncNode.rendezvousDirectory(databaseID: configuration.databaseID)
            try node.startLocalDiscovery(in: directory)
        }
        return listening
    }

    /// Runs the loop until the relays' listing of the drawings is in, or every relay was tried
    /// and failed, or `timeout` passed; returns the listing (empty when none came).
    func awaitRelayListing(timeout: Duration) -> [String: SyncListingEntry] {
        let collection = ReplicaSyncAdapter.drawings.collection
        loop.run(until: { node.listingIsSettled(of: collection) }, timeout: timeout)
        return node.listing(of: collection)
    }

    /// Lets the peers take what was just written (up to two seconds), says goodbye to every
    /// peer, then runs the loop briefly so the goodbyes are read before the process exits (an
    /// exit with unread input resets the connection).
    func shutdown() {
        loop.run(until: { node.status.peersHaveEverything }, timeout: .seconds(2))
        node.shutdown()
        loop.run(until: { false }, timeout: .milliseconds(300))
    }

    static func endpoint(_ address: HostPort) -> SocketEndpoint {
        .tcp(host: address.host, port: address.port)
    }

    /// This machine's name and process id, for the peers' logs.
    static func displayName(_ what: String) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let named = gethostname(&buffer, buffer.count - 1) == 0
        let host =
            named
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : "localhost"
        return "\(what) on \(host) (pid \(getpid()))"
    }
}

import EventRuntime
import Glibc
import MonotonicTime

/// Owns the listeners and sessions of one replica on an event loop: accepts and dials connections
/// through its transport (Unix and TCP sockets, or a test's in-memory network), reconnects dialled
/// peers with backoff (moving down a list of relays when one is lost), and forwards — a delta
/// applied from one session makes every other session send what its peer lacks, so a node
/// serving many clients is the relay.
public final class SyncNode {
    /// Tunables beyond the session configuration.
    public struct Options {
        /// Forward presence from one peer to the others (what a relay does).
        public var forwardsPresence = false
        /// Accepted connections allowed in their handshake at once; more are closed at once.
        public var maxPendingHandshakes = 64
        /// Of those, from one remote host.
        public var maxPendingHandshakesPerHost = 8
        /// The timings of the per-host slowdown after failed handshakes.
        public var throttle = HandshakeThrottle()
        /// On connections it accepted, replicate only what the remote subscribes to, without
        /// announcing this node's own subscriptions (a relay: a client that asked for one
        /// drawing is sent that drawing, not every document the relay holds). Connections this
        /// node dials still replicate its own subscriptions.
        public var servesOnlyRemoteSubscriptions = false
        public init() {}
    }

    let loop: any EventLoop
    private let transport: any Transport
    let replica: any SyncReplica
    private(set) var configuration: SyncSessionConfiguration
    let options: Options
    /// What this node subscribes to on the relays it dials with a listing
    /// (`connect(toFirstOf:listing:)`); it grows with `subscribeOnRelays`.
    public internal(set) var relaySubscriptions: [SyncSubscription] = []
    private let makeSecrets: () -> HandshakeSecrets
    private var random: AnyRandomNumberGenerator
    var connections: [ObjectIdentifier: PeerConnection] = [:]
    /// The connections by what they replicate (`SyncNode+Forwarding`).
    var replicating: [SyncSubscription: [ObjectIdentifier: PeerConnection]] = [:]
    /// The connections whose remote asked for the listing of a collection, by collection.
    var listingServers: [String: [ObjectIdentifier: PeerConnection]] = [:]
    /// The connections whose session holds a delta back until the replica made it durable.
    var awaitingDurability: [ObjectIdentifier: PeerConnection] = [:]
    private var listeners: [any Listener] = []
    /// What this node dials, by the first endpoint of each (`connect(toFirstOf:)`).
    var dialTargets: [SocketEndpoint: DialTarget] = [:]
    private(set) var lastRefusal: SyncNodeStatus.Refusal?
    /// The latest sync of the connections that have ended (live ones keep their own).
    private var lastSyncOfEnded: SyncInstant?
    private(set) var isShutDown = false
    /// Failed handshakes per remote host (accepted TCP connections).
    var throttle: HandshakeThrottle
    /// The last held-back failure of each host, for the line that reports its count later.
    var heldBackFailures: [String: (address: SocketEndpoint, reason: SyncCloseReason)] = [:]
    var heldBackReportTimer: EventLoopTimer?
    /// This peer's last published presence, sent to every connection when it is established.
    public private(set) var ownPresence: PresenceUpdate?
    /// What this relay last announced is wrong with it (`announce(relayProblem:)`).
    public private(set) var ownRelayProblem: String?
    /// Presence passed in from outside the sessions (another relay's clients), with when it
    /// came, so a client that connects later is told who is here; forgotten after the sessions'
    /// presence timeout unless refreshed, as a session forgets its own.
    private var forwardedPresence: [UInt64: (update: PresenceUpdate, at: SyncInstant)] = [:]

    /// Called after a remote delta changed the replica (refresh the view).
    public var onReplicaChanged: () -> Void = {}
    public var onPresence: (PresenceUpdate) -> Void = { _ in }
    public var onPresenceExpired: (UInt64) -> Void = { _ in }
    /// A relay's listing changed (see `listing(of:)`).
    public var onListingChanged: () -> Void = {}
    /// Connections made, ended and failed (see `SyncNodeEvent`).
    public var onEvent: (SyncNodeEvent) -> Void = { _ in }

    struct DialTarget {
        /// Tried in turn, one connection at a time: one endpoint for a peer, several for the
        /// relays of one service (failover).
        var endpoints: [SocketEndpoint]
        /// The endpoint dialled now, or next.
        var current = 0
        /// Found in the rendezvous directory: dropped (and its socket file removed) once refused.
        var isDiscovered = false
        /// Relays: subscribe to `relaySubscriptions` and ask for this collection's listing,
        /// rather than to the node's own subscriptions.
        var listing: String?
        var backoff = ReconnectBackoff()
        var timer: EventLoopTimer?
        /// Attempts that failed or ended, since the target was added.
        var failures = 0
    }

    public init(
        loop: any EventLoop, transport: any Transport, replica: any SyncReplica,
        configuration: SyncSessionConfiguration,
        options: Options = Options(), random: any RandomNumberGenerator = SystemRandomNumberGenerator(),
        makeSecrets: @escaping () -> HandshakeSecrets = HandshakeSecrets.random
    ) {
        self.loop = loop
        self.transport = transport
        self.replica = replica
        self.configuration = configuration
        self.options = options
        throttle = options.throttle
        self.random = AnyRandomNumberGenerator(base: random)
        self.makeSecrets = makeSecrets
    }

    /// Listens on an endpoint; returns the bound endpoint (TCP port 0 becomes the real port).
    @discardableResult
    public func listen(on endpoint: SocketEndpoint) throws -> SocketEndpoint {
        let listener = try transport.listen(on: endpoint) { [weak self] accepted in
            self?.adopt(accepted, role: .acceptor, endpoint: endpoint)
        }
        watchPauses(of: listener)
        listeners.append(listener)
        return listener.endpoint
    }

    /// Serves a socket bound beforehand; returns its endpoint. A socket already served (by this
    /// node or another) is refused.
    @discardableResult
    public func listen(on socket: ListeningSocket) throws -> SocketEndpoint {
        let bound = socket.endpoint
        let listener = try transport.serve(socket) { [weak self] accepted in
            self?.adopt(accepted, role: .acceptor, endpoint: bound)
        }
        watchPauses(of: listener)
        listeners.append(listener)
        return bound
    }

    /// Dials a peer and keeps it connected, redialling with backoff when it drops or refuses.
    public func connect(to endpoint: SocketEndpoint) {
        connect(toFirstOf: [endpoint])
    }

    /// Keeps one connection to the first of `endpoints` that answers (the relays of one
    /// service, in the order the user listed them). A dial that fails, or a session that ends,
    /// moves on to the next endpoint (after the last, the first again) after the backoff's delay,
    /// which only a session that made progress resets; the new session resumes from version
    /// vectors like any reconnection. The list is known by its first endpoint.
    public func connect(toFirstOf endpoints: [SocketEndpoint]) {
        guard let first = endpoints.first else { return }
        connect(DialTarget(endpoints: endpoints), key: first)
    }

    func connect(to endpoint: SocketEndpoint, discovered: Bool) {
        connect(DialTarget(endpoints: [endpoint], isDiscovered: discovered), key: endpoint)
    }

    func connect(_ target: DialTarget, key: SocketEndpoint) {
        guard !isShutDown, dialTargets[key] == nil else { return }
        dialTargets[key] = target
        dial(key)
    }

    /// A local write committed: every session sends what its peer lacks.
    public func localCommitted() {
        driveAll { $0.localCommitted(now: $1) }
    }

    /// The replica made the deltas of `tickets` durable (see `SyncApplyOutcome.deferred`): the
    /// sessions that took them acknowledge (a session that took one of `failed` ends instead),
    /// then the sessions replicating what changed send what their peers now lack. `changed` nil
    /// means unknown: every session looks.
    public func durable(
        _ tickets: Set<UInt64>, failed: [UInt64: String] = [:], changed: Set<SyncSubscription>? = nil
    ) {
        // Only the sessions holding a delta back: on a relay of a thousand clients, a few.
        for connection in Array(awaitingDurability.values) {
            connection.drive { $0.durable(tickets, failed: failed, now: $1) }
        }
        replicaChangedOutsideSessions(changed)
    }

    /// The replica changed without a session (a relay read what other relays stored): the
    /// sessions replicating what changed (every session, when `changed` is nil) send what their
    /// peers lack, and the view refreshes.
    public func replicaChangedOutsideSessions(_ changed: Set<SyncSubscription>? = nil) {
        guard let changed else {
            driveAll { $0.localCommitted(now: $1) }
            return onReplicaChanged()
        }
        guard !changed.isEmpty else { return }
        var driven: Set<ObjectIdentifier> = []
        // In a fixed order (collection, then document; the whole collection first), compared
        // without building a description per comparison.
        let ordered = changed.sorted {
            ($0.collection, $0.documentID ?? "") < ($1.collection, $1.documentID ?? "")
        }
        for subscription in ordered {
            for connection in connections(reachedBy: subscription)
            where driven.insert(ObjectIdentifier(connection)).inserted {
                connection.drive { $0.localCommitted(now: $1) }
            }
        }
        onReplicaChanged()
    }

    /// A relay's own trouble (nil: none), told to every client now and to each one that connects
    /// while it lasts.
    public func announce(relayProblem: String?) {
        guard relayProblem != ownRelayProblem else { return }
        ownRelayProblem = relayProblem
        driveAll { $0.publish(relayProblem: relayProblem, now: $1) }
    }

    /// Passes presence that came from outside the sessions (another relay's client) to every
    /// connected peer but its own.
    public func forward(presence update: PresenceUpdate) {
        forwardedPresence[update.peerID] = (update, loop.now)
        driveAll { $0.publish(presence: update, now: $1) }
    }

    /// Tells every connected peer that a peer known from outside the sessions left.
    public func forward(presenceLeft peerID: UInt64) {
        forwardedPresence[peerID] = nil
        driveAll { $0.publish(presenceLeft: peerID, now: $1) }
    }

    /// The presence passed in by `forward(presence:)` that is still live, by peer.
    public var livePresenceFromOutside: [PresenceUpdate] {
        let now = loop.now
        return forwardedPresence.values.filter { now.since($0.at) < configuration.presenceTimeout }
            .map(\.update).sorted { $0.peerID < $1.peerID }
    }

    /// Publishes this peer's presence to every connected peer.
    public func publish(presence: PresenceUpdate) {
        ownPresence = presence
        driveAll { $0.publish(presence: presence, now: $1) }
    }

    /// A node let go without `shutdown()` leaves nothing on the loop or the transport that would
    /// call it: its listeners close and its redial timers are cancelled (its connections close as
    /// they go, without a goodbye).
    deinit {
        stopListeningAndRedialling()
    }

    /// Says goodbye to every peer and stops listening and redialling. A dial still in flight is
    /// closed when it answers.
    public func shutdown() {
        isShutDown = true
        stopListeningAndRedialling()
        driveAll { $0.shutdown(now: $1) }
    }

    private func stopListeningAndRedialling() {
        for listener in listeners { listener.close() }
        listeners = []
        for target in dialTargets.values { if let timer = target.timer { loop.cancel(timer) } }
        dialTargets = [:]
        if let timer = heldBackReportTimer { loop.cancel(timer) }
        heldBackReportTimer = nil
    }

    public var status: SyncNodeStatus {
        var status = SyncNodeStatus()
        let sessions = connections.values.map(\.session)
        status.peers = connections.values.compactMap(\.establishedPeer).sorted { $0.peerID < $1.peerID }
        status.lastSyncAt = (sessions.compactMap(\.lastSyncAt) + [lastSyncOfEnded].compactMap { $0 }).max()
        status.pendingDeltaCount = sessions.reduce(0) { $0 + $1.pendingDeltaCount }
        status.lastRefusal = lastRefusal
        status.isCaughtUp = !status.peers.isEmpty && sessions.allSatisfy { $0.isCaughtUp }
        status.relayProblem = sessions.lazy.compactMap(\.relayProblem).first
        return status
    }

    // MARK: Connections

    private func dial(_ key: SocketEndpoint) {
        guard !isShutDown, let target = dialTargets[key] else { return }
        dialTargets[key]?.timer = nil
        let endpoint = target.endpoints[target.current]
        // The answer can come after `shutdown()` or after the node is gone (a TCP connect is in
        // progress until the loop next polls); a transport has no way to call a dial off.
        transport.dial(endpoint) { [weak self] outcome in
            guard let self, !isShutDown else {
                if case .success(let connection) = outcome { connection.close() }
                return
            }
            switch outcome {
            case .success(let connection):
                adopt(connection, role: .initiator, endpoint: endpoint, dialTarget: key)
            case .failure(let error): dialFailed(key, endpoint, error)
            }
        }
    }

    private func dialFailed(_ key: SocketEndpoint, _ endpoint: SocketEndpoint, _ error: any Error) {
        onEvent(.unreachable(endpoint: endpoint, problem: String(describing: error)))
        if dialTargets[key]?.isDiscovered == true, case .unix(let path) = endpoint,
            let error = error as? SocketError, error.code == ECONNREFUSED || error.code == ENOENT
        {
            // Nobody listens there any more: the peer died without cleaning up.
            dialTargets[key] = nil
            if error.code == ECONNREFUSED { unlink(path) }
            return
        }
        scheduleRedial(key)
    }

    /// The next attempt, after the backoff's delay, goes to the next endpoint of the list.
    private func scheduleRedial(_ key: SocketEndpoint) {
        guard !isShutDown, var target = dialTargets[key], target.timer == nil else { return }
        target.failures += 1
        target.current = (target.current + 1) % target.endpoints.count
        let delay = target.backoff.nextDelay(using: &random)
        target.timer = loop.schedule(at: loop.now + delay) { [weak self] in self?.dial(key) }
        dialTargets[key] = target
    }

    private func adopt(
        _ socket: any Connection, role: SyncRole, endpoint: SocketEndpoint, dialTarget: SocketEndpoint? = nil
    ) {
        guard role == .initiator || admit(socket) else { return }
        var sessionConfiguration = configuration
        sessionConfiguration.encrypts = endpoint.transport == .tcp
        if role == .acceptor, options.servesOnlyRemoteSubscriptions {
            sessionConfiguration.subscriptions = []
        }
        let listing = dialTarget.flatMap { dialTargets[$0]?.listing }
        if let listing {
            sessionConfiguration.subscriptions = relaySubscriptions
            sessionConfiguration.listings = [listing]
        }
        let session = SyncSession(
            configuration: sessionConfiguration, role: role, replica: replica, secrets: makeSecrets(),
            now: loop.now)
        let connection = PeerConnection(
            node: self, socket: socket, session: session, endpoint: endpoint, dialTarget: dialTarget)
        connection.listsCollection = listing != nil
        connections[ObjectIdentifier(connection)] = connection
        connection.drive { $0.start(now: $1) }
    }

    /// Carries out what a session asked for.
    func perform(_ actions: [SyncAction], from connection: PeerConnection) {
        for action in actions {
            switch action {
            case .send(let bytes):
                connection.socket.write(bytes)
            case .established(let hello):
                if !connection.isDialled, let host = connection.remoteHost {
                    throttle.recordSuccess(of: host)
                }
                connection.wasEstablished = true
                // Peers sync now: an earlier refusal no longer describes where sync stands.
                lastRefusal = nil
                let peer = connection.peer(hello)
                onEvent(.connected(peer, endpoint: connection.endpoint, dialled: connection.isDialled))
                announcePresence(to: connection)
                if let problem = ownRelayProblem {
                    connection.drive { $0.publish(relayProblem: problem, now: $1) }
                }
            case .replicaChanged(let subscription):
                // Only the sessions that replicate what changed: on a relay of many clients on
                // many drawings, a stroke is pushed to its drawing's few, not offered to all.
                // And the sessions whose remote lists the collection: a drawing created or
                // renamed changes their listing.
                for other in connections(reachedBy: subscription) where other !== connection {
                    other.drive { $0.localCommitted(now: $1) }
                }
                onReplicaChanged()
            case .listingChanged:
                onListingChanged()
            case .deliverPresence(let update):
                onPresence(update)
                if options.forwardsPresence {
                    driveAll(except: connection) { $0.publish(presence: update, now: $1) }
                }
            case .presenceExpired(let peerID):
                presenceExpired(peerID, from: connection)
            case .close(let reason):
                finish(connection, reason: reason)
            }
        }
    }

    /// A new connection learns at once who is here: this peer's last presence and, on a relay,
    /// the presence it holds from its other clients and from other relays' clients (passed in by
    /// `forward`, while still live). Otherwise a cursor would appear only when it next moves, and
    /// a peer that reconnected would not be present on its new connection.
    private func announcePresence(to connection: PeerConnection) {
        guard connection.session.isEstablished else { return }
        var updates = ownPresence.map { [$0] } ?? []
        if options.forwardsPresence {
            for other in connections.values where other !== connection {
                updates += other.session.livePresence
            }
            let now = loop.now
            forwardedPresence = forwardedPresence.filter {
                now.since($0.value.at) < configuration.presenceTimeout
            }
            let local = Set(updates.map(\.peerID))
            updates += livePresenceFromOutside.filter { !local.contains($0.peerID) }
        }
        for update in updates {
            connection.drive { $0.publish(presence: update, now: $1) }
        }
    }

    /// A session forgot a peer's presence (timeout, departure or its own close). The peer is gone
    /// only if no other session still holds its presence: a peer that reconnected before its old
    /// connection was noticed dead, or one reachable both directly and through a relay, stays.
    /// A relay tells its other clients, who learned the presence from it.
    private func presenceExpired(_ peerID: UInt64, from connection: PeerConnection) {
        let stillPresent = connections.values.contains { other in
            other !== connection && other.session.holdsPresence(of: peerID)
        }
        guard !stillPresent else { return }
        onPresenceExpired(peerID)
        // While shutting down every session closes and expires everything on its own.
        guard options.forwardsPresence, !isShutDown else { return }
        driveAll(except: connection) { $0.publish(presenceLeft: peerID, now: $1) }
    }

    /// Runs one event on every connection but `excluded`; over a copy, because an event can
    /// close a connection and so remove it from `connections`.
    private func driveAll(
        except excluded: PeerConnection? = nil,
        _ event: @escaping (inout SyncSession, SyncInstant) -> [SyncAction]
    ) {
        for connection in Array(connections.values) where connection !== excluded {
            connection.drive(event)
        }
    }

    private func finish(_ connection: PeerConnection, reason: SyncCloseReason) {
        connection.socket.closeAfterFlushing()
        connection.cancelTimer()
        connections[ObjectIdentifier(connection)] = nil
        unindex(connection)
        lastSyncOfEnded = [lastSyncOfEnded, connection.session.lastSyncAt].compactMap { $0 }.max()
        // A connection this node accepted is named with where it came from, for the logs.
        let address = connection.isDialled ? nil : connection.socket.remoteAddress
        let name =
            switch (connection.session.remote?.displayName, address) {
            case (let peer?, let address?): "\(peer) (\(address))"
            case (let peer?, nil): peer
            case (nil, let address?): address.description
            case (nil, nil): connection.endpoint.description
            }
        // A peer that quit, went quiet or dropped is gone, not refusing: the status says offline.
        if reason.isRefusal {
            lastRefusal = SyncNodeStatus.Refusal(
                reason: reason, at: loop.now, peer: name, dialled: connection.isDialled)
        }
        if !connection.isDialled, !connection.wasEstablished, reason != .localShutdown {
            handshakeFailed(connection, reason: reason)
        }
        onEvent(
            .disconnected(
                peer: name, endpoint: connection.endpoint, dialled: connection.isDialled, reason: reason,
                wasEstablished: connection.wasEstablished))
        if let key = connection.dialTarget {
            // Getting through the handshake is not progress; a delta applied or acknowledged is.
            dialTargets[key]?.backoff.sessionEnded(madeProgress: connection.session.lastSyncAt != nil)
            scheduleRedial(key)
        }
    }
}

import EventRuntime
import FoundationEssentials
import RelayStore
import ReplicaCore
import ReplicaSync

/// `drawtogether serve --listen HOST:PORT --postgres URL`: the relay with its documents in
/// PostgreSQL instead of a local replica, so any number of relays share them. It connects before
/// it accepts a client, and reads a drawing when a client first subscribes to it (dropping it
/// from memory a minute after the last one let go); a URL it cannot use is one line and exit
/// status 1. Later database failures are logged, never fatal: clients stay connected and
/// what they send waits, unacknowledged, until the database is back.
extension ServeCommand {
    /// How many descriptors the relay keeps for itself (listener, wake-up pipe, the database, logs).
    static let reservedDescriptors: UInt64 = 16

    /// The start-up line saying how many clients the open-file limit leaves room for.
    static func clientCapacity(openFileLimit limit: UInt64) -> String {
        "\(prefix): open-file limit \(limit): room for about "
            + "\(limit > reservedDescriptors ? limit - reservedDescriptors : 0) clients"
    }

    static func runOnPostgres(url: String, configuration: Configuration) throws -> Int32 {
        guard let listen = configuration.listen else { return 2 }
        let limit = DescriptorLimit.raiseToHardLimit()
        let listener = try ListeningSocket(binding: PeerWiring.endpoint(listen))
        let loop = try PollEventLoop(clock: .system)
        var generator = SystemRandomNumberGenerator()
        let peerID = PeerID(generator.next())
        let replica: RelayReplica
        do {
            replica = try RelayReplica(
                url: url, databaseID: configuration.databaseID, loop: loop, peerID: peerID)
        } catch {
            printError("\(prefix): \(UserMessage.message(for: error))")
            return 1
        }
        var started: PostgresError??
        replica.start { started = .some($0) }
        // The connection gives up by itself after its own timeout; this only bounds a stuck start.
        loop.run(until: { started != nil }, timeout: .seconds(60))
        if case .some(.some(let failure)) = started {
            printError("\(prefix): \(UserMessage.message(for: failure))")
            return 1
        }
        guard started != nil else {
            printError("\(prefix): PostgreSQL at \(replica.target) did not answer within a minute")
            return 1
        }

        let session = SyncSessionConfiguration(
            databaseID: configuration.databaseID, peerID: peerID.rawValue,
            displayName: PeerWiring.displayName("relay"), token: configuration.token ?? "", encrypts: false,
            subscriptions: [
                SyncSubscription(
                    collection: ReplicaSyncAdapter.drawings.collection,
                    documentID: ReplicaSyncAdapter.drawings.documentID)
            ])
        var options = SyncNode.Options()
        options.forwardsPresence = true
        // As on a relay on SQLite: a client is sent what it subscribes to, not every drawing.
        options.servesOnlyRemoteSubscriptions = true
        let node = SyncNode(
            loop: loop, transport: SocketTransport(loop: loop), replica: replica, configuration: session,
            options: options)
        replica.onDurable = { [weak node] in node?.durable($0, changed: $1) }
        replica.onChanged = { [weak node] in node?.replicaChangedOutsideSessions($0) }
        replica.liveSubscriptions = { [weak node] in node?.replicatedSubscriptions ?? [] }
        // Presence crosses relays through the database's presence channel, coalesced.
        node.onPresence = { [weak replica] in replica?.publishPresence(.update($0)) }
        node.onPresenceExpired = { [weak replica] in replica?.publishPresence(.left(peerID: $0)) }
        replica.onRemotePresence = { [weak node] change in
            switch change {
            case .update(let update): node?.forward(presence: update)
            case .left(let peerID): node?.forward(presenceLeft: peerID)
            }
        }
        replica.onAvailabilityChanged = { [weak node] failure in
            node?.announce(relayProblem: failure.map { _ in UserMessage.relayDatabaseUnreachable })
            if let failure {
                printError(
                    "\(prefix): \(UserMessage.message(for: failure)); clients stay connected, and what they "
                        + "send waits until it is back")
            } else {
                printError("\(prefix): PostgreSQL at \(replica.target) is reachable again; caught up")
            }
        }
        let signals = try SyncShutdownSignals(loop: loop)
        var log = SyncEventLog(prefix: prefix)
        node.onEvent = { event in
            if let line = log.line(for: event) { printError(line) }
        }
        printError(
            "\(prefix): documents in PostgreSQL at \(replica.target), database id \(configuration.databaseID), "
                + "peer \(PeerIDText.short(peerID.rawValue))")
        printError(clientCapacity(openFileLimit: limit))
        let endpoint = try node.listen(on: listener)
        for target in configuration.peers { node.connect(to: PeerWiring.endpoint(target)) }
        if !configuration.servers.isEmpty {
            node.connect(toFirstOf: configuration.servers.map(PeerWiring.endpoint))
        }
        // Where it listens, for whoever started it; a closed standard output does not stop a relay.
        try? CommandOutput.printStandardOutput("listening on \(endpoint)\n")
        while signals.receivedSignal == nil {
            loop.runOnce(maximumWait: .seconds(1))
        }
        printError("\(prefix): stopping, saying goodbye to \(node.status.peers.count) client(s)")
        loop.run(until: { replica.unsavedDeltaCount == 0 }, timeout: .seconds(2))
        node.shutdown()
        loop.run(until: { false }, timeout: .milliseconds(300))
        replica.close()
        printError(commitStatisticsLine(replica.commitStatistics))
        return 0
    }
}

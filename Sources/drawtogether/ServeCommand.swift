import EventRuntime
import FoundationEssentials
import ReplicaSync

/// `drawtogether serve --listen HOST:PORT --token T [--store DIR]`: the relay. A peer with its own
/// replica that accepts clients over TCP, keeps every document they subscribe to and forwards
/// changes (and presence) between them. It prints `listening on HOST:PORT` on standard output
/// (the real port when given port 0), one line per event on standard error, and runs until
/// SIGINT or SIGTERM, then says goodbye and exits 0.
enum ServeCommand {
    static let prefix = "drawtogether serve"

    static func run(configuration: Configuration) throws -> Int32 {
        guard configuration.listen != nil else {
            // The parser already insists; this guards callers that build a configuration by hand.
            printError("\(prefix): serve needs --listen HOST:PORT")
            return 2
        }
        if let url = configuration.postgresURL {
            return try runOnPostgres(url: url, configuration: configuration)
        }
        let wiring = try PeerWiring(
            configuration: configuration, role: .relay, displayName: PeerWiring.displayName("relay"))
        let signals = try SyncShutdownSignals(loop: wiring.loop)
        var log = SyncEventLog(prefix: prefix)
        wiring.node.onEvent = { event in
            if let line = log.line(for: event) { printError(line) }
        }
        printError("\(prefix): replica \(wiring.replica.directory), peer \(wiring.replica.peerID.shortHex)")
        // PeerWiring raised the limit already; this reads what is in force.
        printError(clientCapacity(openFileLimit: DescriptorLimit.raiseToHardLimit()))
        // A relay is not a local instance: it does not take part in local discovery.
        for endpoint in try wiring.start(discovery: false) {
            // Where it listens, for whoever started it; a closed standard output does not stop a relay.
            try? CommandOutput.printStandardOutput("listening on \(endpoint)\n")
        }
        while signals.receivedSignal == nil {
            wiring.loop.runOnce(maximumWait: .seconds(1))
        }
        printError("\(prefix): stopping, saying goodbye to \(wiring.node.status.peers.count) client(s)")
        wiring.shutdown()
        printError(commitStatisticsLine(wiring.adapter.commitStatistics))
        return 0
    }

    /// The last line of a relay's log: how its group commit batched what clients sent (the
    /// capacity bench's `relay.commit_batch` reads it).
    static func commitStatisticsLine(_ statistics: (transactions: Int, deltas: Int)) -> String {
        "\(prefix): group commit: \(statistics.deltas) deltas in \(statistics.transactions) transactions"
    }
}

import FoundationEssentials
import Glibc
import ReplicaSync

/// `drawtogether sync [--once]`: a headless peer. It opens the next free replica slot, syncs with
/// the configured and discovered peers, and prints one line per event on standard error.
/// Without `--once` it runs until SIGINT or SIGTERM and exits 0 after saying goodbye; with
/// `--once` it exits 0 as soon as every peer is in sync (see `SyncOnceProgress`), 1 on a refusal
/// or when nothing answers in time.
enum SyncCommand {
    /// Seconds `--once` waits for an answer (default 10).
    static let timeoutVariable = "DRAWTOGETHER_SYNC_TIMEOUT"
    static let prefix = "drawtogether sync"

    static func run(configuration: Configuration, once: Bool) throws -> Int32 {
        let timeout = try onceTimeout(ProcessInfo.processInfo.environment)
        if once, configuration.peers.isEmpty, configuration.servers.isEmpty, !configuration.discovery,
            configuration.listen == nil
        {
            printError(
                "\(prefix): nothing to sync with: give --peer, --server or --listen, or drop --no-discovery")
            return 1
        }
        let wiring = try PeerWiring(
            configuration: configuration, role: .peer, displayName: PeerWiring.displayName("sync"))
        let signals = try SyncShutdownSignals(loop: wiring.loop)
        var log = SyncEventLog(prefix: prefix)
        var progress = SyncOnceProgress(
            targets: wiring.peerTargets.map { [$0] }
                + (wiring.relayTargets.isEmpty ? [] : [wiring.relayTargets]),
            timeout: timeout, discovery: configuration.discovery,
            databaseID: configuration.databaseID, now: wiring.loop.now)
        wiring.node.onEvent = { event in
            if let line = log.line(for: event) { printError(line) }
            progress.record(event)
        }
        printError("\(prefix): replica \(wiring.replica.directory), peer \(wiring.replica.peerID.shortHex)")
        for endpoint in try wiring.start(discovery: configuration.discovery) {
            printError("\(prefix): listening on \(endpoint)")
        }
        if configuration.discovery {
            let directory = try SyncNode.rendezvousDirectory(databaseID: configuration.databaseID)
            printError("\(prefix): local instances find this one in \(directory)")
        }

        var status: Int32 = 0
        running: while signals.receivedSignal == nil {
            wiring.loop.runOnce(maximumWait: .milliseconds(250))
            let nodeStatus = wiring.node.status
            if let line = log.line(for: nodeStatus) { printError(line) }
            guard once else { continue }
            switch progress.verdict(status: nodeStatus, now: wiring.loop.now) {
            case .waiting:
                continue
            case .inSync:
                break running
            case .failed(let message):
                printError("\(prefix): \(message)")
                status = 1
                break running
            case .refused:
                status = 1
                break running
            }
        }
        if let signal = signals.receivedSignal {
            printError("\(prefix): \(signal == SIGINT ? "interrupted" : "terminated"), saying goodbye")
            // Stopped on request: a clean exit, unless --once was stopped before it was in sync.
            if once { status = 1 }
        }
        // The signal pipe stays registered while the goodbyes go out.
        withExtendedLifetime(signals) { wiring.shutdown() }
        return status
    }

    /// `DRAWTOGETHER_SYNC_TIMEOUT` as a duration; 10 s when unset.
    static func onceTimeout(_ environment: [String: String]) throws(SyncCommandError) -> Duration {
        guard let text = environment[timeoutVariable], !text.isEmpty else { return .seconds(10) }
        guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
            throw .badTimeout(variable: timeoutVariable, value: text)
        }
        return .milliseconds(Int64(seconds * 1000))
    }
}

/// Why `sync` cannot start.
enum SyncCommandError: Error, Equatable, CustomStringConvertible {
    case badTimeout(variable: String, value: String)

    var description: String {
        switch self {
        case .badTimeout(let variable, let value):
            return "\(variable) is '\(DisplayText.excerpt(value))'; set it to a number of seconds, e.g. 30"
        }
    }
}

import EventRuntime
import Glibc
import MonotonicTime
import ReplicaSync

/// N client sessions on the driver's one event loop, each a real `SyncNode` with its own peer
/// id and in-memory replica, dialling a relay over TCP (CPace, encryption, a subscription to its
/// one drawing). Clients are spread over the drawings; the first client of each drawing draws,
/// the others watch. A stroke's fan-out time runs from just before its client hands it to the
/// session until the last other connected subscriber of the drawing has applied it.
final class RelayLoad {
    final class Client {
        let index: Int
        let drawing: Int
        let relay: Int
        let node: SyncNode
        let replica: RelayClientReplica
        var isConnected = false
        var strokes = 0
        var timer: EventLoopTimer?

        init(index: Int, drawing: Int, relay: Int, node: SyncNode, replica: RelayClientReplica) {
            self.index = index
            self.drawing = drawing
            self.relay = relay
            self.node = node
            self.replica = replica
        }
    }

    /// A stroke on its way to the drawing's other subscribers.
    private struct InFlight {
        var sentAt: UInt64
        var expected: Int
        var arrived = 0
        var timed: Bool
    }

    static let token = "drawtogether bench relay token, 32+ characters"
    static let databaseID = "bench-relay"
    /// What the relay allows in their handshake at once from one host (`SyncNode.Options`):
    /// the driver connects from 127.0.0.1, so it keeps to it per relay.
    static let handshakesPerHost = 8

    let loop: PollEventLoop
    private let transport: SocketTransport
    private let relays: [SocketEndpoint]
    private(set) var clients: [Client] = []
    /// The clients of each drawing.
    private var subscribers: [[Client]] = []
    private var inFlight: [String: InFlight] = [:]
    private var random = BenchRandom(seed: 0x5E1A)
    private(set) var latencies = DurationSample()
    /// Handshakes the relay turned away or that failed during the ramp (each was redialled).
    private(set) var failedHandshakes = 0
    /// Why the last of them failed, for the progress line when the ramp does not finish.
    private(set) var lastFailure: String?
    private(set) var timedStrokes = 0
    /// Every stroke sent, warm-up included.
    private(set) var sentStrokes = 0
    /// Strokes a drawing client skipped because it was not connected at that moment.
    private(set) var skippedStrokes = 0
    /// Established sessions that ended while the clients ran.
    private(set) var drops = 0
    /// Why the last of them ended.
    private(set) var lastDrop: String?
    private var measuring = false
    private let strokeValue: String

    init(relays: [SocketEndpoint]) throws {
        loop = try PollEventLoop(clock: .system)
        transport = SocketTransport(loop: loop)
        self.relays = relays
        // About the size of a short freehand stroke group, base64.
        strokeValue = String(repeating: "QUJDRA", count: 32)
    }

    var connectedCount: Int { clients.reduce(0) { $0 + ($1.isConnected ? 1 : 0) } }

    /// Connects `count` clients over `drawings` drawings, at most `handshakesPerHost` in their
    /// handshake per relay at once; returns false if they were not all connected by `timeout`.
    func connect(count: Int, drawings: Int, timeout: Duration) -> Bool {
        subscribers = Array(repeating: [], count: drawings)
        for index in 0..<count {
            let replica = RelayClientReplica(
                peerID: 0xBE00_0000_0000_0000 | UInt64(index + 1),
                drawingID: "bench-relay-\(index % drawings)")
            let configuration = SyncSessionConfiguration(
                databaseID: Self.databaseID, peerID: 0xBE00_0000_0000_0000 | UInt64(index + 1),
                displayName: "bench client \(index)", token: Self.token, encrypts: false,
                subscriptions: [replica.subscription])
            let node = SyncNode(
                loop: loop, transport: transport, replica: replica, configuration: configuration)
            let client = Client(
                // The drawers are spread over the relays and so are each drawing's watchers
                // (`index % relays.count` put all of a drawing's clients on one relay whenever
                // the drawing count was even).
                index: index, drawing: index % drawings, relay: (index + index / drawings) % relays.count,
                node: node,
                replica: replica)
            node.onEvent = { [unowned self, unowned client] event in
                switch event {
                case .connected: client.isConnected = true
                case .disconnected(_, _, _, let reason, let wasEstablished):
                    if wasEstablished {
                        client.isConnected = false
                        drops += 1
                        lastDrop = reason.message
                    } else {
                        failedHandshakes += 1
                        lastFailure = reason.message
                    }
                case .unreachable(_, let problem):
                    failedHandshakes += 1
                    lastFailure = problem
                default: break
                }
            }
            replica.onStrokes = { [unowned self] keys in arrived(keys) }
            clients.append(client)
            subscribers[client.drawing].append(client)
        }
        var started = Set<Int>()
        let deadline = loop.now + timeout
        while loop.now < deadline {
            for relay in relays.indices {
                let waiting = clients.filter {
                    $0.relay == relay && started.contains($0.index) && !$0.isConnected
                }
                var room = Self.handshakesPerHost - waiting.count
                for client in clients
                where room > 0 && client.relay == relay && !started.contains(client.index) {
                    started.insert(client.index)
                    client.node.connect(to: relays[relay])
                    room -= 1
                }
            }
            if started.count == count, connectedCount == count { return true }
            loop.runOnce(maximumWait: .milliseconds(5))
        }
        return false
    }

    /// Runs the loop for a while (sessions keep alive, deltas flow).
    func idle(for duration: Duration) {
        loop.run(until: { false }, timeout: duration)
    }

    /// Every drawing's first client draws `rate` strokes a second (each from a random phase) for
    /// `warmUp` plus `duration`; fan-out is timed for the strokes sent in `duration`, then up to
    /// `drain` is given for the last ones to arrive.
    func draw(drawers: Int, rate: Double, warmUp: Duration, duration: Duration, drain: Duration) {
        let period = Duration.milliseconds(Int64(1000 / rate))
        for client in clients.prefix(drawers) {
            let phase = Duration.milliseconds(Int64.random(in: 0..<period.wholeMilliseconds, using: &random))
            scheduleStroke(client, at: loop.now + phase, period: period)
        }
        idle(for: warmUp)
        measuring = true
        idle(for: duration)
        measuring = false
        for client in clients {
            if let timer = client.timer { loop.cancel(timer) }
            client.timer = nil
        }
        _ = loop.run(until: { !inFlight.values.contains { $0.timed } }, timeout: drain)
    }

    /// Strokes sent while timing that had not reached every subscriber at the end.
    var incompleteStrokes: Int { inFlight.values.filter(\.timed).count }

    private func scheduleStroke(_ client: Client, at deadline: SyncInstant, period: Duration) {
        client.timer = loop.schedule(at: deadline) { [unowned self] in
            sendStroke(from: client)
            scheduleStroke(client, at: deadline + period, period: period)
        }
    }

    private func sendStroke(from client: Client) {
        guard client.isConnected else {
            skippedStrokes += 1
            return
        }
        let watchers = subscribers[client.drawing].filter { $0 !== client && $0.isConnected }.count
        client.strokes += 1
        let key = "2026-01-01T00:00:00.000Z~c\(client.index)-\(client.strokes)"
        do {
            try client.replica.write(strokeKey: key, value: strokeValue, wall: loop.now.milliseconds)
        } catch {
            FigureReport.progress("a bench client could not write a stroke: \(error)")
            return
        }
        sentStrokes += 1
        if watchers > 0 {
            inFlight[key] = InFlight(sentAt: BenchClock.now(), expected: watchers, timed: measuring)
            if measuring { timedStrokes += 1 }
        }
        client.node.localCommitted()
    }

    private func arrived(_ keys: [String]) {
        let now = BenchClock.now()
        for key in keys {
            guard var stroke = inFlight[key] else { continue }
            stroke.arrived += 1
            if stroke.arrived < stroke.expected {
                inFlight[key] = stroke
                continue
            }
            inFlight[key] = nil
            if stroke.timed { latencies.add(Double(now &- stroke.sentAt) / 1e6) }
        }
    }

    /// Goodbyes from every client, read before the relay is stopped.
    func shutdown() {
        for client in clients {
            if let timer = client.timer { loop.cancel(timer) }
            client.node.shutdown()
        }
        idle(for: .milliseconds(500))
        clients = []
        subscribers = []
    }
}

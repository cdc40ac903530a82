import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore
@testable import ReplicaStore

/// Seeded random convergence of real SQLite replicas that compact: peers write at random (the
/// workload of the core's convergence tests) and sync as sessions do, over links that deliver in
/// order but late and are cut and made again; at random points a random replica compacts
/// (`compact()`, or the background steps that compact and checkpoint on their own), or is closed
/// and opened again from disk. One peer stays offline for the middle of the run, writing all the
/// while; in even seeds it is away longer than the retention time, so the others compact past it
/// and it comes back to whole states. At the end every replica shows the same documents, and
/// exactly what the add-wins model of every write ever made says they show.
@Suite struct StoredCompactionConvergenceTests {
    static let collection = "drawings"
    static let day: Int64 = 24 * 3_600_000

    /// One real replica in a temporary directory, with the wall clock the test moves.
    final class Peer: ConvergenceNode {
        let directory: TemporaryDirectory
        let clock: ManualClock
        let peer: UInt64
        var replica: Replica

        init(peer: UInt64, now: Int64) throws {
            directory = try TemporaryDirectory(prefix: "compacting-\(peer)")
            clock = ManualClock(now)
            self.peer = peer
            replica = try Replica(directory: directory.path, configuration: Self.configuration(clock, peer))
        }

        /// Small thresholds, so the background steps compact and checkpoint often and a
        /// snapshot takes several steps (a reopen can land in the middle of one).
        static func configuration(_ clock: ManualClock, _ peer: UInt64) -> ReplicaConfiguration {
            var configuration = clock.configuration(peer: peer)
            configuration.checkpointPartEvents = 4
            configuration.checkpointMinimumLogEvents = 8
            configuration.compactionMinimumEvents = 2
            return configuration
        }

        /// Closes the replica and opens it again from its files, as after a restart.
        func reopen() throws {
            replica = try Replica.openReadOnly(directory: directory.path)  // releases the writer
            replica = try Replica(directory: directory.path, configuration: Self.configuration(clock, peer))
        }

        func key(_ id: String) -> DocumentKey { DocumentKey(collection: collection, id: id) }

        func fields(_ id: String) throws -> [String: DocumentValue]? {
            try replica.execute(Statements.select(), arguments: ["id": .string(id)]).documents.first.map {
                row in
                row.filter { $0.key != "_id" }
            }
        }

        func run(_ statement: DQLStatement, _ arguments: [String: DocumentValue], wall: Int64) throws {
            clock.now = max(clock.now, wall)
            try replica.execute(statement, arguments: arguments)
        }

        func versions(of collection: String) throws -> DocumentVersions {
            try replica.versions(collection: collection, documentID: nil)
        }

        func changes(in collection: String, since: DocumentVersions) throws -> ReplicaDelta {
            try replica.changes(collection: collection, documentID: nil, since: since)
        }

        func merge(_ delta: ReplicaDelta, wall: Int64) throws -> ApplyOutcome {
            clock.now = max(clock.now, wall)
            return try replica.apply(delta)
        }

        func snapshot() throws -> [DocumentKey: DocumentState] { replica.state.allDocuments }
    }

    /// A session's messages for the one subscription (all of `drawings`), as bytes where the
    /// session sends bytes.
    enum Message {
        case versions([UInt8])
        case delta(sender: [UInt8], changes: [UInt8])
        case fullState(sender: [UInt8], state: [UInt8])
        case ack(versions: [UInt8])
    }

    /// One side of a connection, as `SyncSession` keeps it: what the remote was last known to
    /// hold, and whether a delta of ours waits for its ack.
    struct Side {
        var remote: DocumentVersions?
        var inFlight = false
    }

    /// The run's network: a link per ordered pair of connected peers, each in order (a TCP
    /// connection), delivered in a random order across links.
    struct Network {
        var peers: [Peer]
        var online: [Bool]
        var links: [[[Message]]]
        var sides: [[Side?]]
        var rng: SplitMix64
        var walls: [Int64]
        var model = AddWinsModel()
        var dropped = 0
        var adopted = 0
        var reopens = 0

        init(peers: [Peer], seed: UInt64, start: Int64) {
            self.peers = peers
            online = peers.map { _ in true }
            links = peers.map { _ in peers.map { _ in [] } }
            sides = peers.map { _ in peers.map { _ in nil } }
            rng = SplitMix64(seed: seed)
            // Skewed clocks, one of them an hour ahead (as in the core's harness).
            walls = peers.indices.map { start + ($0 == 1 ? 3_600_000 : Int64($0) * 7) }
        }

        /// Moves a peer's wall clock to its own time before it does anything.
        func at(_ index: Int) -> Peer {
            peers[index].clock.now = max(peers[index].clock.now, walls[index])
            return peers[index]
        }

        func versions(_ index: Int) throws -> DocumentVersions {
            try at(index).replica.versions(collection: collection, documentID: nil)
        }

        mutating func send(_ message: Message, from: Int, to: Int) {
            links[from][to].append(message)
        }

        /// Connects two online peers: a fresh session each way, opened by sending versions.
        mutating func connect(_ a: Int, _ b: Int) throws {
            guard a != b, online[a], online[b], sides[a][b] == nil else { return }
            sides[a][b] = Side()
            sides[b][a] = Side()
            links[a][b] = []
            links[b][a] = []
            send(.versions(try versions(a).encoded()), from: a, to: b)
            send(.versions(try versions(b).encoded()), from: b, to: a)
        }

        /// Cuts the connection between two peers: what was on the wire is lost.
        mutating func disconnect(_ a: Int, _ b: Int) {
            sides[a][b] = nil
            sides[b][a] = nil
            links[a][b] = []
            links[b][a] = []
        }

        mutating func connectAll() throws {
            for a in peers.indices { for b in peers.indices where a < b { try connect(a, b) } }
        }

        /// `SyncSession.pushChanges`: a whole state when the remote does not cover what was
        /// compacted, else the changes it lacks; one in flight.
        mutating func push(from sender: Int, to receiver: Int, evenIfEmpty: Bool = false) throws {
            guard let side = sides[sender][receiver], let remote = side.remote, !side.inFlight else { return }
            let replica = at(sender).replica
            if let state = replica.fullState(collection: collection, documentID: nil, since: remote) {
                send(
                    .fullState(sender: try versions(sender).encoded(), state: state.encoded()), from: sender,
                    to: receiver)
                sides[sender][receiver]?.inFlight = true
                return
            }
            let delta = try replica.changes(collection: collection, documentID: nil, since: remote)
            guard !delta.isEmpty || evenIfEmpty else { return }
            send(
                .delta(sender: try versions(sender).encoded(), changes: delta.isEmpty ? [] : delta.encoded()),
                from: sender, to: receiver)
            sides[sender][receiver]?.inFlight = true
        }

        /// A local commit or a changed replica: every connected session sends what its remote lacks.
        mutating func pushToAll(from sender: Int, except skipped: Int? = nil) throws {
            for receiver in peers.indices where receiver != skipped && sides[sender][receiver] != nil {
                try push(from: sender, to: receiver)
            }
        }

        /// What the session does with one message from `sender` at `receiver`.
        mutating func receive(_ message: Message, from sender: Int, at receiver: Int) throws {
            let replica = at(receiver).replica
            let peer = peers[sender].replica.peerID
            switch message {
            case .versions(let bytes):
                let versions = try DocumentVersions(decoding: bytes)
                sides[receiver][sender]?.remote = versions
                replica.recordPeerVersions(versions, collection: collection, peer: peer)
                try push(from: receiver, to: sender, evenIfEmpty: sides[receiver][sender]?.inFlight == false)
            case .delta(let senderBytes, let changes), .fullState(let senderBytes, let changes):
                var changed = false
                if case .fullState = message {
                    let outcome = try replica.adopt(try ReplicaFullState(decoding: changes))
                    adopted += 1
                    if case .applied(let new, let ids) = outcome { changed = new > 0 || !ids.isEmpty }
                } else if !changes.isEmpty {
                    let outcome = try replica.apply(try ReplicaDelta(decoding: changes))
                    if case .applied(let new, let ids) = outcome { changed = new > 0 || !ids.isEmpty }
                }
                let senderVersions = try DocumentVersions(decoding: senderBytes)
                replica.recordPeerVersions(senderVersions, collection: collection, peer: peer)
                if sides[receiver][sender]?.inFlight == false {
                    sides[receiver][sender]?.remote = senderVersions
                }
                send(.ack(versions: try versions(receiver).encoded()), from: receiver, to: sender)
                if changed { try pushToAll(from: receiver, except: sender) }
            case .ack(let bytes):
                let versions = try DocumentVersions(decoding: bytes)
                sides[receiver][sender]?.inFlight = false
                sides[receiver][sender]?.remote = versions
                replica.recordPeerVersions(versions, collection: collection, peer: peer)
                try push(from: receiver, to: sender)
            }
        }

        /// Delivers the first message of a random non-empty link, if any; false when all are empty.
        mutating func deliverOne() throws -> Bool {
            var busy: [(Int, Int)] = []
            for from in peers.indices {
                for to in peers.indices where !links[from][to].isEmpty { busy.append((from, to)) }
            }
            guard !busy.isEmpty else { return false }
            let (from, to) = busy[Int(rng.next() % UInt64(busy.count))]
            let message = links[from][to].removeFirst()
            try receive(message, from: from, at: to)
            return true
        }

        /// A local statement of the workload on one peer, recorded in the model and announced.
        mutating func write(_ index: Int, workload: RandomWorkload) throws {
            walls[index] += Int64(rng.next() % 3)  // often the same millisecond
            let before = try versions(index)
            var peer = at(index)
            try workload.step(&peer, wall: walls[index], &rng)
            let written = try peer.changes(in: collection, since: before)
            model.record(written)
            try pushToAll(from: index)
        }

        /// A random replica's idle steps, as its loop runs them: checkpoints, compaction, peer
        /// versions, vacuum.
        mutating func idleSteps(_ index: Int, upTo limit: Int) {
            let replica = at(index).replica
            var steps = 0
            while steps < limit, replica.backgroundStep() { steps += 1 }
        }

        mutating func compact(_ index: Int) throws {
            dropped += try at(index).replica.compact()
        }

        /// Closes and reopens a replica from disk: its sessions end, and come back if it is online.
        mutating func reopen(_ index: Int) throws {
            for other in peers.indices where other != index { disconnect(index, other) }
            try peers[index].reopen()
            reopens += 1
            if online[index] {
                for other in peers.indices where online[other] { try connect(index, other) }
            }
        }

        mutating func goOffline(_ index: Int) {
            online[index] = false
            for other in peers.indices where other != index { disconnect(index, other) }
        }

        mutating func comeBack(_ index: Int) throws {
            online[index] = true
            for other in peers.indices where online[other] { try connect(index, other) }
        }

        /// Delivers everything, then cuts and makes every connection again (fresh versions both
        /// ways) and delivers again, until a whole round changes no replica's versions.
        mutating func settle() throws {
            for index in peers.indices where !online[index] { try comeBack(index) }
            var rounds = 0
            while true {
                var deliveries = 0
                while try deliverOne() {
                    deliveries += 1
                    precondition(deliveries < 1_000_000, "the links never went quiet")
                }
                let before = try peers.indices.map { try versions($0) }
                for a in peers.indices { for b in peers.indices where a < b { disconnect(a, b) } }
                try connectAll()
                while try deliverOne() {}
                let after = try peers.indices.map { try versions($0) }
                rounds += 1
                if before == after { break }
                precondition(rounds < 20, "versions kept changing")
            }
        }
    }

    static var workload: RandomWorkload { RandomWorkload(scope: .document) }

    /// The run of one seed: 3 or 4 peers, `operations` steps; the last peer is offline from a
    /// quarter to three quarters of the way (writing meanwhile), and in even seeds the clocks jump
    /// 31 days while it is away, so it stops holding compaction back.
    func run(seed: UInt64, operations: Int) throws -> Network {
        let count = 3 + Int(seed % 2)
        let start: Int64 = 1_770_000_000_000
        let peers = try (0..<count).map { try Peer(peer: seed &* 0x9E37_79B9 &+ UInt64($0) + 1, now: start) }
        var network = Network(peers: peers, seed: seed, start: start)
        try network.connectAll()
        let offline = count - 1
        let away = (operations / 4)..<(3 * operations / 4)
        let expires = seed % 2 == 0
        for operation in 0..<operations {
            if operation == away.lowerBound { network.goOffline(offline) }
            if operation == away.upperBound { try network.comeBack(offline) }
            if expires && operation == (away.lowerBound + away.upperBound) / 2 {
                for index in network.walls.indices { network.walls[index] += 31 * Self.day }
            }
            let writer = Int(network.rng.next() % UInt64(count))
            try network.write(writer, workload: Self.workload)
            for _ in 0..<Int(network.rng.next() % 4) { _ = try network.deliverOne() }
            let roll = network.rng.next() % 1_000
            let target = Int(network.rng.next() % UInt64(count))
            switch roll {
            case 0..<25: try network.compact(target)
            case 25..<200: network.idleSteps(target, upTo: 1 + Int(network.rng.next() % 8))
            case 200..<210: try network.reopen(target)
            case 210..<220:
                // A connection drops and is made again: what was on its wire is lost.
                let other = Int(network.rng.next() % UInt64(count))
                network.disconnect(target, other)
                try network.connect(target, other)
            default: break
            }
        }
        try network.settle()
        return network
    }

    @Test(arguments: UInt64(1)...50)
    func compactingReplicasOnDiskConvergeToWhatAddWinsSays(seed: UInt64) throws {
        var network = try run(seed: seed, operations: 400)
        #expect(
            network.dropped > 0
                || network.peers.contains { peer in
                    peer.replica.state.allDocuments.values.contains { !$0.compacted.isEmpty }
                }, "nothing was compacted, seed \(seed)")
        if seed % 2 == 0 { #expect(network.adopted > 0, "no whole state was sent, seed \(seed)") }
        let ids = Self.workload.documentIDs
        func expectAgreement(_ when: String) throws {
            let reference = try network.peers[0].versions(of: Self.collection)
            for (index, peer) in network.peers.enumerated() {
                for id in ids {
                    let expected = network.model.fields(of: peer.key(id))
                    #expect(
                        try peer.fields(id) == expected,
                        "\(when): document \(id) on peer \(index) is not what add-wins says, seed \(seed)")
                }
                #expect(
                    try peer.versions(of: Self.collection) == reference,
                    "\(when): peer \(index) holds other versions, seed \(seed)")
            }
        }
        try expectAgreement("settled")
        for index in network.peers.indices { try network.reopen(index) }
        try expectAgreement("reopened")
        // The vectors peers said they hold are written by idle steps: what was heard since the
        // last one is gone after the reopen, so compaction waits until the peers have synced again.
        try network.settle()
        // Everyone holds everything and said so: compacted everywhere, the replicas hold the same
        // events (only live ones), and the rule finds nothing removed among them.
        for index in network.peers.indices { try network.compact(index) }
        let documents = network.peers[0].replica.state.allDocuments
        for (index, peer) in network.peers.enumerated() {
            #expect(
                peer.replica.state.allDocuments == documents, "peer \(index) holds other events, seed \(seed)"
            )
        }
        for (key, document) in documents {
            #expect(
                document.events.values.allSatisfy { !$0.isRemoved },
                "\(key.id): a removed event outlived compaction by everyone, seed \(seed)")
            #expect(ConvergenceOracle.mismatches(in: document).isEmpty, "\(key.id), seed \(seed)")
        }
        try expectAgreement("compacted")
    }
}

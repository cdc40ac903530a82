import ByteCoding
import ReplicaCore
import ReplicaCoreTestSupport
import ReplicaStore
import TestSupport
import Testing

/// The coordinator's write without DQL (`ReplicaTransaction.upsert` and `unset`) on stored
/// replicas: against the DQL statements it stands for, the same observer deliveries, the same
/// delta to a peer and the same document after a reopen; and a failed transaction keeps none of it.
@Suite struct ReplicaEntryWriteTests {
    struct Failure: Error {}

    let directory: TemporaryDirectory
    let clock = ManualClock()

    init() throws {
        directory = try TemporaryDirectory()
    }

    func open(_ name: String) throws -> Replica {
        try Replica(directory: directory.path + "/" + name, configuration: clock.configuration(peer: 0xAB))
    }

    /// What the observers of drawing-1 on two replicas were told, each in order.
    final class Deliveries {
        var first: [DocumentObservation] = []
        var second: [DocumentObservation] = []
        var tokens: [ObservationToken] = []

        func cancel() { tokens.forEach { $0.cancel() } }
    }

    /// Two fresh replicas, each with an observer of drawing-1 whose deliveries are collected.
    func observedPair(_ first: String, _ second: String) throws -> (Replica, Replica, Deliveries) {
        let (a, b) = (try open(first), try open(second))
        let deliveries = Deliveries()
        deliveries.tokens = [
            a.observeDocument("drawing-1", in: "drawings") { deliveries.first.append($0) },
            b.observeDocument("drawing-1", in: "drawings") { deliveries.second.append($0) },
        ]
        return (a, b, deliveries)
    }

    /// Drawing-1's whole state in `replica`, encoded as the delta to a peer that holds nothing.
    static func wholeState(of replica: Replica) throws -> [UInt8] {
        try replica.changes(collection: "drawings", documentID: "drawing-1", since: DocumentVersions())
            .encoded()
    }

    static let entryKeys = (0..<12).map { "k\($0)" }

    /// A flush as the coordinator makes one: strokes, sweeps of some of them, a few removals.
    static func randomFlush(_ rng: inout SplitMix64) -> (entries: [DocumentEntry], removals: [[String]]) {
        var entries: [DocumentEntry] = []
        var removals: [[String]] = []
        for key in entryKeys {
            switch rng.next() % 8 {
            case 0:
                entries.append(DocumentEntry(path: ["strokes", key], value: .string("s\(rng.next() % 3)")))
            case 1:
                entries.append(
                    DocumentEntry(
                        path: ["sweeps", key, "w\(rng.next() % 2)"], value: .string("m\(rng.next() % 2)")))
            case 2: removals += [["strokes", key], ["sweeps", key]]
            case 3: removals.append(["sweeps", key, "w\(rng.next() % 2)"])
            default: continue
            }
        }
        return (entries, removals)
    }

    static func nested(_ entries: [DocumentEntry]) -> DocumentValue {
        var strokes: [String: DocumentValue] = [:]
        var sweeps: [String: [String: DocumentValue]] = [:]
        for entry in entries where entry.path.first == "strokes" { strokes[entry.path[1]] = entry.value }
        for entry in entries where entry.path.first == "sweeps" {
            sweeps[entry.path[1], default: [:]][entry.path[2]] = entry.value
        }
        var document: [String: DocumentValue] = ["_id": .string("drawing-1")]
        if !strokes.isEmpty { document["strokes"] = .object(strokes) }
        if !sweeps.isEmpty { document["sweeps"] = .object(sweeps.mapValues { .object($0) }) }
        return .object(document)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func entriesGiveTheObserversPeersAndReopenWhatTheDQLStatementsGive(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        do {
            let (dql, entries, heard) = try observedPair("dql", "entries")
            defer { heard.cancel() }
            for _ in 0..<60 {
                clock.now += Int64(rng.next() % 2)
                let (written, removed) = Self.randomFlush(&rng)
                try dql.write { transaction in
                    if !written.isEmpty {
                        try transaction.execute(
                            Statements.insert(.updateLocalDiff), arguments: ["doc": Self.nested(written)])
                    }
                    if !removed.isEmpty {
                        try transaction.execute(
                            Statements.unset(removed), arguments: ["id": .string("drawing-1")])
                    }
                }
                try entries.write { transaction in
                    if !written.isEmpty { try transaction.upsert(written, into: "drawings", id: "drawing-1") }
                    if !removed.isEmpty { try transaction.unset(removed, in: "drawings", id: "drawing-1") }
                }
                #expect(heard.second == heard.first)
                #expect(try Self.wholeState(of: entries) == Self.wholeState(of: dql))
            }
            #expect(heard.first.count > 40)
        }
        let select = Statements.select()
        let arguments: [String: DocumentValue] = ["id": .string("drawing-1")]
        let reopened = try open("entries")
        #expect(
            try reopened.execute(select, arguments: arguments)
                == open("dql").execute(select, arguments: arguments))
        #expect(try reopened.execute(select, arguments: arguments).documents.count == 1)
    }

    /// A stroke written as bytes (`.base64`, as the coordinator writes it) and the same stroke
    /// written as its text through DQL are one value in the store: the same delta, the same
    /// deliveries, and after a snapshot and a reopen the same document and the same JSON; a text
    /// that is not canonical base64 stays text.
    @Test func aValueWrittenAsBytesIsTheStringOfItsTextInTheStore() throws {
        var rng = SplitMix64(seed: 0xB64)
        var values: [[UInt8]] = (0..<20).map { _ in
            (0..<Int(rng.next() % 120)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        }
        values.append([])
        let keys = values.indices.map { "k\($0)" }
        let asText = zip(keys, values).map {
            DocumentEntry(path: ["strokes", $0], value: .string(CanonicalBase64.encode($1)))
        }
        let asBytes = zip(keys, values).map { DocumentEntry(path: ["strokes", $0], value: .base64($1)) }
        let plain = DocumentEntry(path: ["strokes", "plain"], value: .string("not base64"))
        do {
            let (text, bytes, heard) = try observedPair("text", "bytes")
            defer { heard.cancel() }
            try text.execute(
                Statements.insert(.updateLocalDiff), arguments: ["doc": Self.nested(asText + [plain])])
            try bytes.write { try $0.upsert(asBytes + [plain], into: "drawings", id: "drawing-1") }
            #expect(heard.second == heard.first)
            // Writing the other form of the same values changes nothing: no delivery.
            let delivered = heard.second.count
            try bytes.write { try $0.upsert(asText, into: "drawings", id: "drawing-1") }
            #expect(heard.second.count == delivered)
            #expect(try Self.wholeState(of: bytes) == Self.wholeState(of: text))
            try text.checkpoint()
            try bytes.checkpoint()
        }
        let select = Statements.select()
        let arguments: [String: DocumentValue] = ["id": .string("drawing-1")]
        let fromText = try #require(try open("text").execute(select, arguments: arguments).documents.first)
        let fromBytes = try #require(try open("bytes").execute(select, arguments: arguments).documents.first)
        #expect(fromText == fromBytes)
        #expect(DocumentValue.object(fromText).jsonString() == DocumentValue.object(fromBytes).jsonString())
        let strokes = try #require(fromBytes["strokes"]?.objectValue)
        for (key, value) in zip(keys, values) {
            #expect(strokes[key]?.stringValue == CanonicalBase64.encode(value))
            #expect(strokes[key]?.base64Bytes == value)
        }
        guard case .string("not base64")? = strokes["plain"] else {
            Issue.record("a text that is not base64 came back as \(String(describing: strokes["plain"]))")
            return
        }
    }

    @Test func aTransactionThatFailsAfterAnUpsertKeepsNothingOfIt() throws {
        var deliveries: [DocumentObservation] = []
        do {
            let replica = try open("a")
            try replica.write { transaction in
                try transaction.upsert(
                    [DocumentEntry(path: ["strokes", "k1"], value: .string("kept"))], into: "drawings",
                    id: "drawing-1")
            }
            let token = replica.observeDocument("drawing-1", in: "drawings") { deliveries.append($0) }
            defer { token.cancel() }
            #expect(throws: Failure.self) {
                try replica.write { transaction in
                    try transaction.upsert(
                        [DocumentEntry(path: ["strokes", "k2"], value: .string("lost"))], into: "drawings",
                        id: "drawing-1")
                    try transaction.unset([["strokes", "k1"]], in: "drawings", id: "drawing-1")
                    throw Failure()
                }
            }
            // A refused entry after a good one: the whole transaction goes.
            #expect(throws: ReplicaError.self) {
                try replica.write { transaction in
                    try transaction.upsert(
                        [DocumentEntry(path: ["strokes", "k3"], value: .string("lost"))], into: "drawings",
                        id: "drawing-1")
                    try transaction.upsert(
                        [DocumentEntry(path: ["_id"], value: .string("other"))], into: "drawings",
                        id: "drawing-1")
                }
            }
            let fields = try replica.execute(Statements.select(), arguments: ["id": .string("drawing-1")])
            #expect(fields.documents.first?["strokes"] == .object(["k1": .string("kept")]))
            #expect(deliveries.count == 1)  // the first value only: no commit happened
        }
        let reopened = try open("a")
        let fields = try reopened.execute(Statements.select(), arguments: ["id": .string("drawing-1")])
        #expect(fields.documents.first?["strokes"] == .object(["k1": .string("kept")]))
    }
}

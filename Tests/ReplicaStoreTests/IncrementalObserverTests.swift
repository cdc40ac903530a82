import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore
@testable import ReplicaStore

/// Observers of one document get patches from the paths each commit changed; SELECT observers
/// run their query again. Whatever the statements and the merges, what each delivers must be
/// exactly what running the query gives, and a SELECT observer delivers exactly when that changes.
@Suite struct IncrementalObserverTests {
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func deliveriesEqualFreshQueriesAfterRandomWritesAndMerges(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var a = try StoredNode(peer: 0xA1)
        var b = try StoredNode(peer: 0xB2)
        let workload = RandomWorkload(scope: .document)
        var delivered: [String: [QueryResult]] = [:]
        var mirrors: [String: [String: DocumentValue]?] = [:]
        var tokens: [ObservationToken] = []
        for id in workload.documentIDs {
            tokens.append(
                try a.replica.observe(Statements.select(), arguments: ["id": .string(id)]) {
                    delivered[id, default: []].append($0)
                })
            // The first value and the patches of a document observer, applied in order.
            tokens.append(
                a.replica.observeDocument(id, in: "drawings") { mirrors[id, default: nil].follow($0) })
        }
        var wall: Int64 = 1_000
        for step in 0..<300 {
            wall += Int64(rng.next() % 3)
            switch rng.next() % 10 {
            case 0..<5: try workload.step(&a, wall: wall, &rng)
            case 5..<8: try workload.step(&b, wall: wall, &rng)
            default:
                let delta = try b.changes(in: "drawings", since: try a.versions(of: "drawings"))
                _ = try a.merge(delta, wall: wall)
            }
            for id in workload.documentIDs {
                let fresh = try a.replica.execute(Statements.select(), arguments: ["id": .string(id)])
                let history = delivered[id] ?? []
                #expect(history.last == fresh, "seed \(seed) step \(step) document \(id)")
                #expect(
                    Self.row(id, mirrors[id] ?? nil) == fresh.documents,
                    "seed \(seed) step \(step) document \(id)")
                // Delivered only on a change: no two deliveries in a row are equal.
                #expect(
                    zip(history, history.dropFirst()).allSatisfy { $0 != $1 },
                    "seed \(seed) step \(step) document \(id)")
            }
        }
        withExtendedLifetime(tokens) {}
    }

    /// A document observer gets the whole document first, then per commit the paths it wrote
    /// with what each shows now; a document that vanished is one whole-document patch.
    @Test func aDocumentObserverGetsThePathsEachCommitChanged() throws {
        let node = try StoredNode(peer: 0xA1)
        let doc: DocumentValue = .object(["_id": .string("d0"), "strokes": .object(["k1": .string("a")])])
        try node.replica.execute(Statements.insert(), arguments: ["doc": doc])
        var deliveries: [DocumentObservation] = []
        let token = node.replica.observeDocument("d0", in: "drawings") { deliveries.append($0) }
        try node.replica.execute(
            Statements.set(["strokes", "k2"]), arguments: ["id": .string("d0"), "value": .string("b")])
        try node.replica.execute(Statements.unset([["strokes", "k1"]]), arguments: ["id": .string("d0")])
        try node.replica.execute(Statements.delete(), arguments: ["id": .string("d0")])
        #expect(deliveries.count == 4)
        guard case .initial(let first)? = deliveries.first else {
            Issue.record("the first delivery is not the document")
            return
        }
        #expect(first.fields == ["strokes": .object(["k1": .string("a")])])
        var entries: [String: DocumentValue] = [:]
        first.forEachEntry(ofMap: "strokes") { entries[$0] = $1 }
        #expect(entries == ["k1": .string("a")])
        #expect(deliveries[1] == .changed([DocumentPatch(path: ["strokes", "k2"], value: .string("b"))]))
        #expect(deliveries[2] == .changed([DocumentPatch(path: ["strokes", "k1"], value: nil)]))
        #expect(deliveries[3] == .changed([DocumentPatch(path: [], value: nil)]))
        withExtendedLifetime(token) {}
    }

    /// Nested maps that appear with their first entry and vanish with their last, registers that
    /// replace maps and maps written under registers, from two peers merged in both directions.
    @Test(arguments: [UInt64(11), 12, 13, 14, 15, 16])
    func nestedMapsAppearingAndVanishingArePatchedExactly(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var a = try StoredNode(peer: 0xA1)
        var b = try StoredNode(peer: 0xB2)
        let doc: DocumentValue = .object(["_id": .string("d0"), "strokes": .object([:])])
        for node in [a, b] {
            try node.replica.execute(Statements.insert(.updateLocalDiff), arguments: ["doc": doc])
        }
        let paths: [[String]] = [
            ["meta"], ["meta", "a"], ["meta", "b"], ["meta", "a", "x"], ["meta", "a", "y"], ["strokes", "k"],
        ]
        var delivered: [QueryResult] = []
        let token = try a.replica.observe(Statements.select(), arguments: ["id": .string("d0")]) {
            delivered.append($0)
        }
        var mirror: [String: DocumentValue]?
        let documentToken = a.replica.observeDocument("d0", in: "drawings") { mirror.follow($0) }
        var wall: Int64 = 1_000
        for step in 0..<400 {
            wall += Int64(rng.next() % 2)
            let path = paths[Int(rng.next() % UInt64(paths.count))]
            let value: DocumentValue =
                rng.next() % 4 == 0
                ? .object(["z": .number(Double(rng.next() % 3))]) : .number(Double(rng.next() % 3))
            let statement = rng.next() % 3 == 0 ? Statements.unset([path]) : Statements.set(path)
            let arguments: [String: DocumentValue] = ["id": .string("d0"), "value": value]
            switch rng.next() % 8 {
            case 0..<3: try a.run(statement, arguments, wall: wall)
            case 3..<6: try b.run(statement, arguments, wall: wall)
            case 6:
                _ = try a.merge(
                    try b.changes(in: "drawings", since: try a.versions(of: "drawings")), wall: wall)
            default:
                _ = try b.merge(
                    try a.changes(in: "drawings", since: try b.versions(of: "drawings")), wall: wall)
            }
            let fresh = try a.replica.execute(Statements.select(), arguments: ["id": .string("d0")])
            #expect(delivered.last == fresh, "seed \(seed) step \(step)")
            #expect(
                zip(delivered, delivered.dropFirst()).allSatisfy { $0 != $1 }, "seed \(seed) step \(step)")
            #expect(Self.row("d0", mirror) == fresh.documents, "seed \(seed) step \(step)")
        }
        withExtendedLifetime((token, documentToken)) {}
    }

    /// A mirrored document as a SELECT returns it: one row with its `_id`, or none.
    private static func row(_ id: String, _ fields: [String: DocumentValue]?) -> [[String: DocumentValue]] {
        guard var fields else { return [] }
        fields["_id"] = .string(id)
        return [fields]
    }
}

extension Optional where Wrapped == [String: DocumentValue] {
    /// Takes in one delivery of a document observer.
    fileprivate mutating func follow(_ observation: DocumentObservation) {
        switch observation {
        case .initial(let document): self = document.fields
        case .changed(let patches): for patch in patches { patch.apply(to: &self) }
        }
    }
}

import ReplicaCore
import TestSupport
import Testing

@testable import ReplicaStore

/// A document observer is told of what a commit changed in what the document shows, no more: a
/// peer's delta whose events all lose (both peers wrote every key, this one later) is not
/// delivered at all, while commit handlers still hear of every path the commit wrote.
@Suite struct ShownChangeObservationTests {
    private let home: TemporaryDirectory
    private let clock = ManualClock()
    private let keys = (0..<30).map { "k\($0)" }

    init() throws {
        home = try TemporaryDirectory(prefix: "shown-change")
    }

    @Test func aDeltaWhoseEventsAllLoseIsNotDeliveredAndTheWayBackTellsEachKey() throws {
        let a = try Replica(directory: home.path + "/a", configuration: clock.configuration(peer: 1))
        let b = try Replica(directory: home.path + "/b", configuration: clock.configuration(peer: 2))
        for key in keys { try write(key, "a-" + key, into: a) }
        for key in keys { try write(key, "b-" + key, into: b) }
        var deliveries: [String: [DocumentObservation]] = [:]
        var mirrors: [String: [String: DocumentValue]?] = [:]
        var commits: [ReplicaCommit] = []
        let tokens = [
            a.observeDocument("doc", in: "drawings") {
                deliveries["a", default: []].append($0)
                Self.follow($0, &mirrors["a", default: nil])
            },
            b.observeDocument("doc", in: "drawings") {
                deliveries["b", default: []].append($0)
                Self.follow($0, &mirrors["b", default: nil])
            },
            b.onCommit { commits.append($0) },
        ]

        try Self.sync(from: a, to: b)
        // Only the first value: every event of A's delta lost to B's later one.
        #expect(deliveries["b"]?.count == 1)
        let key = DocumentKey(collection: "drawings", id: "doc")
        // The commit handler is told every path the commit wrote, as before.
        #expect(commits.count == 1)
        #expect(commits.last?.changedPaths[key]?.isSuperset(of: keys.map { ["strokes", $0] }) == true)
        #expect(commits.last?.changedPaths[key]?.contains([]) == true)

        try Self.sync(from: b, to: a)
        // The way back: each key, with B's value, and nothing for the root marker or `_id` that
        // won there (they show what A showed).
        #expect(deliveries["a"]?.count == 2)
        let expected = keys.sorted().map { DocumentPatch(path: ["strokes", $0], value: .string("b-" + $0)) }
        guard case .changed(let patches)? = deliveries["a"]?.last else {
            Issue.record("A's observer was not told of B's delta")
            return
        }
        #expect(patches.sorted { $0.path.lexicographicallyPrecedes($1.path) } == expected)
        for (name, replica) in [("a", a), ("b", b)] {
            let fresh = try replica.execute("SELECT * FROM drawings WHERE _id = 'doc'").documents.first
            var row = mirrors[name] ?? nil
            row?["_id"] = .string("doc")
            #expect(row == fresh, "\(name)'s mirror")
        }
        withExtendedLifetime(tokens) {}
    }

    /// One transaction per stroke, as the coordinator's flush writes it.
    private func write(_ key: String, _ value: String, into replica: Replica) throws {
        clock.now += 1
        try replica.write { transaction in
            _ = try transaction.upsert(
                [DocumentEntry(path: ["strokes", key], value: .string(value))], into: "drawings", id: "doc")
        }
    }

    /// Applies what `to` lacks of `from`, through the wire format.
    private static func sync(from: Replica, to: Replica) throws {
        let since = try to.versions(collection: "drawings", documentID: "doc")
        let delta = try ReplicaDelta(
            decoding: try from.changes(collection: "drawings", documentID: "doc", since: since).encoded())
        guard case .applied = try to.apply(delta) else {
            Issue.record("a delta from the versions themselves was refused")
            return
        }
    }

    /// Takes in one delivery of a document observer.
    private static func follow(_ observation: DocumentObservation, _ fields: inout [String: DocumentValue]?) {
        switch observation {
        case .initial(let document): fields = document.fields
        case .changed(let patches): for patch in patches { patch.apply(to: &fields) }
        }
    }
}

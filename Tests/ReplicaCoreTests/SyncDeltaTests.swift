import ReplicaCore
import ReplicaCoreTestSupport
import Testing

@Suite struct SyncDeltaTests {
    @Test func deltaWithAGapIsRefusedWholeAndAppliedOnceComplete() throws {
        var a = ReplicaState(peerID: PeerID(1))
        var b = ReplicaState(peerID: PeerID(2))
        _ = try a.execute(
            Statements.insert(), arguments: ["doc": .object(["_id": .string("d"), "n": .number(1)])], wall: 1)
        let first = a.versions(collection: "drawings", documentID: "d")
        _ = try a.execute(
            Statements.set(["n"]), arguments: ["id": .string("d"), "value": .number(2)], wall: 2)
        _ = try a.execute(Statements.insert(), arguments: ["doc": .object(["_id": .string("e")])], wall: 3)
        // Only the second write of d, plus all of e: d has a gap, so e must not be applied either.
        let later = a.changes(collection: "drawings", documentID: nil, since: first)
        let outcome = try b.apply(later, wall: 10)
        #expect(outcome == .refused(collection: "drawings", have: DocumentVersions(["d": VersionVector()])))
        #expect(b.allDocuments.isEmpty)

        let full = a.changes(collection: "drawings", documentID: nil, since: DocumentVersions())
        guard case .applied(let newEvents, let changed) = try b.apply(full, wall: 10) else {
            Issue.record("complete delta refused")
            return
        }
        #expect(newEvents == full.eventCount)
        #expect(changed == ["d", "e"])
        #expect(b.allDocuments == a.allDocuments)
        #expect(try b.apply(full, wall: 11) == .applied(newEvents: 0, changedDocumentIDs: []))
        #expect(b.allDocuments == a.allDocuments)
    }

    /// A merge takes the events out of the delta it is handed (`ReplicaState.merge`); a delta
    /// the caller still holds is copied first, so it keeps every event and merges the same again.
    @Test func aDeltaStillHeldKeepsItsEventsWhenAnotherReplicaMergesIt() throws {
        var a = ReplicaState(peerID: PeerID(1))
        for index in 0..<20 {
            _ = try a.execute(
                Statements.insert(.update),
                arguments: [
                    "doc": .object([
                        "_id": .string("d"), "strokes": .object(["k\(index)": .string("v\(index)")]),
                    ])
                ],
                wall: Int64(index))
        }
        let delta = try ReplicaDelta(
            decoding: a.changes(collection: "drawings", documentID: nil, since: DocumentVersions()).encoded())
        let held = delta
        var b = ReplicaState(peerID: PeerID(2))
        var c = ReplicaState(peerID: PeerID(3))
        _ = try b.apply(delta, wall: 30)
        #expect(
            held.encoded()
                == a.changes(collection: "drawings", documentID: nil, since: DocumentVersions()).encoded())
        _ = try c.apply(held, wall: 30)
        #expect(b.allDocuments == a.allDocuments)
        #expect(c.allDocuments == a.allDocuments)
    }

    @Test func deltaCarriesRemovalsSoAnUnsetReachesAPeerThatHadTheValue() throws {
        var a = ReplicaState(peerID: PeerID(1))
        var b = ReplicaState(peerID: PeerID(2))
        _ = try a.execute(
            Statements.insert(),
            arguments: ["doc": .object(["_id": .string("d"), "strokes": .object(["k": .string("v")])])],
            wall: 1)
        try b.pull(from: a)
        let seen = b.versions(collection: "drawings", documentID: "d")
        _ = try a.execute(Statements.unset([["strokes", "k"]]), arguments: ["id": .string("d")], wall: 2)
        let delta = a.changes(collection: "drawings", documentID: "d", since: seen)
        #expect(delta.eventCount == 1)
        _ = try b.apply(delta, wall: 3)
        #expect(b.fields("d") == ["strokes": .object([:])])
    }

    @Test func eventThatClaimsToHaveSeenItselfIsRejected() throws {
        var b = ReplicaState(peerID: PeerID(2))
        let dot = Dot(peer: PeerID(1), counter: 1)
        let event = DocumentEvent(
            dot: dot, timestamp: .zero, path: [], kind: .map, value: nil,
            context: VersionVector([PeerID(1): 1]), isRemoved: false)
        let delta = ReplicaDelta(collection: "c", documents: [.init(documentID: "d", events: [event])])
        #expect(throws: ReplicaError.self) { try b.apply(delta, wall: 0) }
    }
}

import ReplicaCore
import ReplicaCoreTestSupport
import TestSupport
import Testing

/// The full-state exchange (`ReplicaState.fullState`, `adopt`): a replica that missed history
/// the sender compacted away takes the whole state, drops what was removed there, keeps what it
/// wrote meanwhile, and both then show the same document.
@Suite struct FullStateTests {
    static let key = DocumentKey(collection: "drawings", id: "d")
    static let wall: Int64 = 1_000

    func write(_ replica: inout ReplicaState, _ strokes: [String: DocumentValue]) throws {
        _ = try replica.execute(
            Statements.insert(.updateLocalDiff),
            arguments: ["doc": .object(["_id": .string("d"), "strokes": .object(strokes)])], wall: Self.wall)
    }

    func strokes(_ replica: ReplicaState) -> [String: DocumentValue] {
        replica.document(Self.key)?.fields?["strokes"]?.objectValue ?? [:]
    }

    func sync(_ from: ReplicaState, into to: inout ReplicaState) throws {
        _ = try to.apply(
            from.changes(
                collection: "drawings", documentID: nil,
                since: to.versions(collection: "drawings", documentID: nil)),
            wall: Self.wall)
    }

    @Test func aReplicaThatMissedACompactedEraseTakesTheWholeStateAndKeepsItsOfflineWrite() throws {
        var a = ReplicaState(peerID: PeerID(1))
        var b = ReplicaState(peerID: PeerID(2))
        try write(&a, ["erased": .string("ink"), "kept": .string("ink")])
        try sync(a, into: &b)
        // B goes offline and draws; A erases a stroke and compacts it away (B is not counted).
        try write(&b, ["offline": .string("b")])
        _ = try a.execute(
            Statements.unset([["strokes", "erased"]]), arguments: ["id": .string("d")], wall: Self.wall)
        let stable = try #require(a.document(Self.key)).versionVector
        #expect(a.compact(Self.key, stable: stable).count == 2)

        let since = b.versions(collection: "drawings", documentID: nil)
        // A delta would lack the erase: B would keep the stroke for ever.
        #expect(a.changes(collection: "drawings", documentID: nil, since: since).isEmpty)
        let full = try #require(a.fullState(collection: "drawings", documentID: nil, since: since))
        #expect(try ReplicaFullState(decoding: full.encoded()) == full)
        #expect(full.compacted[Self.key.id] == a.document(Self.key)?.compacted)

        let paths = try b.adopt(
            fullState: full.delta.documents[0].events, compacted: full.compacted[Self.key.id], into: Self.key,
            wall: Self.wall)
        #expect(paths.contains(["strokes", "erased"]))
        #expect(strokes(b) == ["kept": .string("ink"), "offline": .string("b")])
        // B now covers A's compacted vector: deltas flow again, and its offline write reaches A.
        #expect(
            a.fullState(
                collection: "drawings", documentID: nil,
                since: b.versions(collection: "drawings", documentID: nil)) == nil)
        try sync(b, into: &a)
        try sync(a, into: &b)
        #expect(strokes(a) == strokes(b))
        #expect(
            a.versions(collection: "drawings", documentID: nil)
                == b.versions(collection: "drawings", documentID: nil))
        // The erased stroke arriving again (a late copy of B's old delta) stays erased.
        let old = ReplicaDelta(
            collection: "drawings",
            documents: [.init(documentID: "d", events: full.delta.documents[0].events)])
        _ = try b.apply(old, wall: Self.wall)
        #expect(strokes(b)["erased"] == nil)
    }

    @Test func aWholeStateNamingADocumentItLacksIsRefused() throws {
        let state = ReplicaFullState(
            delta: ReplicaDelta(collection: "drawings", documents: []),
            compacted: DocumentVersions(["ghost": VersionVector([PeerID(1): 3])]))
        let bytes = state.encoded()
        #expect(throws: BinaryDecodingError.self) { _ = try ReplicaFullState(decoding: bytes) }
    }
}

/// `DocumentState.eventsBeside(received:)`: what a snapshot must hold beside a received block.
@Suite struct EventsBesideTests {
    func event(_ counter: UInt64, _ key: String, peer: UInt64 = 1) -> DocumentEvent {
        DocumentEvent(
            dot: Dot(peer: PeerID(peer), counter: counter),
            timestamp: HybridTimestamp(milliseconds: Int64(counter), counter: 0), path: ["strokes", key],
            kind: .value, value: .string("v\(counter)"), context: VersionVector(), isRemoved: false)
    }

    @Test func itIsWhatTheBlockLacksOrHoldsInAnotherFormAndNilWhenTheBlockHoldsMore() {
        let received = [event(1, "a"), event(2, "b")]
        let same = DocumentState(events: received)
        #expect(same.eventsBeside(received: received) == [])

        let own = event(1, "c", peer: 2)
        let more = DocumentState(events: received + [own])
        #expect(more.eventsBeside(received: received) == [own])

        // Removed here since it came: its removed form goes beside the block.
        let remover = DocumentEvent(
            dot: Dot(peer: PeerID(2), counter: 1), timestamp: HybridTimestamp(milliseconds: 9, counter: 0),
            path: ["strokes", "a"], kind: .value, value: .string("new"),
            context: VersionVector([PeerID(1): 1]), isRemoved: false)
        let removed = DocumentState(events: received + [remover])
        var removedForm = received[0]
        removedForm.isRemoved = true
        removedForm.value = nil
        #expect(removed.eventsBeside(received: received) == [removedForm, remover])

        // The block holds an event the document lacks, or the same dot with other content.
        #expect(DocumentState(events: [received[0]]).eventsBeside(received: received) == nil)
        var other = received[1]
        other.value = .string("other")
        #expect(DocumentState(events: [received[0], other]).eventsBeside(received: received) == nil)
    }
}

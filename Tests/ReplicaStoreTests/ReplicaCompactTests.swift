import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore
@testable import ReplicaStore

/// `Replica.compact()`, the explicit compaction: what it drops (removed events every counted peer
/// holds) and keeps (everything live, and what some counted peer lacks), that the files say the
/// same after a reopen, and how long a silent peer holds it back (the 30-day rule).
@Suite struct ReplicaCompactTests {
    static let key = DocumentKey(collection: "drawings", id: "drawing-1")
    static let start: Int64 = 1_770_000_000_000
    static let retention: Int64 = 30 * 24 * 3_600_000

    final class Peers {
        let clock = ManualClock(ReplicaCompactTests.start)
        var directories: [TemporaryDirectory] = []
        var replicas: [Replica] = []

        init(_ ids: [UInt64]) throws {
            for id in ids {
                let directory = try TemporaryDirectory(prefix: "compact-\(id)")
                directories.append(directory)
                replicas.append(
                    try Replica(directory: directory.path, configuration: clock.configuration(peer: id)))
            }
        }
    }

    func set(_ strokes: [String: DocumentValue], in replica: Replica, clock: ManualClock) throws {
        clock.now += 10
        try replica.execute(
            Statements.insert(.updateLocalDiff),
            arguments: ["doc": .object(["_id": .string("drawing-1"), "strokes": .object(strokes)])])
    }

    func unset(_ keys: [String], in replica: Replica, clock: ManualClock) throws {
        clock.now += 10
        try replica.execute(
            Statements.unset(keys.map { ["strokes", $0] }), arguments: ["id": .string("drawing-1")])
    }

    /// `to` takes what `from` has that it lacks, and `from` hears what `to` now holds (the ack).
    func send(_ from: Replica, _ to: Replica) throws {
        let delta = try from.changes(
            collection: "drawings", documentID: nil,
            since: try to.versions(collection: "drawings", documentID: nil))
        if !delta.isEmpty { _ = try to.apply(try ReplicaDelta(decoding: delta.encoded())) }
        from.recordPeerVersions(
            try to.versions(collection: "drawings", documentID: nil), collection: "drawings", peer: to.peerID)
    }

    func strokes(_ replica: Replica) throws -> [String: DocumentValue]? {
        try replica.execute(Statements.select(), arguments: ["id": .string("drawing-1")]).documents.first?[
            "strokes"]?.objectValue
    }

    func document(_ replica: Replica) throws -> DocumentState {
        try #require(replica.state.document(Self.key))
    }

    @Test func itDropsWhatEveryCountedPeerHoldsRemovedAndKeepsEverythingLive() throws {
        let peers = try Peers([0xA1, 0xB2])
        let (a, b) = (peers.replicas[0], peers.replicas[1])
        try set(
            ["k1": .string("first"), "k2": .string("gone"), "k3": .string("kept")], in: a, clock: peers.clock)
        try set(["k1": .string("second")], in: a, clock: peers.clock)
        try unset(["k2"], in: a, clock: peers.clock)
        try send(a, b)
        let before = try document(a)
        let removed = before.events.values.filter(\.isRemoved).map(\.dot).sorted()
        // The first k1, k2's value and the UNSET that removed it.
        #expect(removed.count == 3)
        let shown = try strokes(a)

        #expect(try a.compact() == removed.count)
        let after = try document(a)
        #expect(after.events.values.allSatisfy { !$0.isRemoved })
        #expect(Set(after.events.keys) == Set(before.events.keys).subtracting(removed))
        #expect(after.versionVector == before.versionVector)
        #expect(after.compacted == before.versionVector)
        #expect(try strokes(a) == shown)
        #expect(shown == ["k1": .string("second"), "k3": .string("kept")])
        // Nothing more to drop: a second call drops nothing and changes nothing.
        #expect(try a.compact() == 0)
        #expect(try document(a) == after)
        // B, which holds all of it, needs no whole state; a peer holding nothing does.
        #expect(
            a.fullState(
                collection: "drawings", documentID: nil,
                since: try b.versions(collection: "drawings", documentID: nil))
                == nil)
        #expect(a.fullState(collection: "drawings", documentID: nil, since: DocumentVersions()) != nil)
    }

    @Test func aReopenAfterItSeesTheSameDocumentsAndKeepsTheCompactedVector() throws {
        let peers = try Peers([0xA1, 0xB2])
        let a = peers.replicas[0]
        for round in 0..<6 {
            try set(
                ["k\(round % 3)": .string("round \(round)"), "x\(round)": .bool(true)], in: a,
                clock: peers.clock)
            if round % 2 == 1 { try unset(["x\(round - 1)"], in: a, clock: peers.clock) }
        }
        try send(a, peers.replicas[1])
        #expect(try a.compact() > 0)
        let compacted = try document(a)
        let shown = try strokes(a)
        let directory = peers.directories[0].path
        let b = peers.replicas[1]
        peers.replicas = []
        // The only writer of A's files was `a`: closing it (below, by the end of its scope) is
        // what lets the reopen take the lock.
        _ = consume a
        let reopened = try Replica(directory: directory, configuration: peers.clock.configuration(peer: 0xA1))
        #expect(try document(reopened) == compacted)
        #expect(try document(reopened).compacted == compacted.compacted)
        #expect(try document(reopened).versionVector == compacted.versionVector)
        #expect(try strokes(reopened) == shown)
        // The snapshot holds it all: nothing is left in the log to replay.
        #expect(reopened.storedDocuments[Self.key]?.logEvents == 0)
        // A late copy of an event it dropped does not come back after the reopen either.
        let everything = try b.changes(collection: "drawings", documentID: nil, since: DocumentVersions())
        #expect(try reopened.apply(everything) == .applied(newEvents: 0, changedDocumentIDs: []))
        #expect(try document(reopened) == compacted)
    }

    @Test func aCountedPeerThatLacksARemovalHoldsItBack() throws {
        let peers = try Peers([0xA1, 0xB2, 0xC3])
        let (a, b, c) = (peers.replicas[0], peers.replicas[1], peers.replicas[2])
        try set(["k": .string("old")], in: a, clock: peers.clock)
        try set(["k": .string("new")], in: a, clock: peers.clock)
        let old = try #require(try document(a).events.values.first { $0.isRemoved })
        let new = try #require(try document(a).events.values.first { $0.value == .string("new") })
        try send(a, b)
        try send(a, c)
        // C has both writes; then k is erased and only B hears of it.
        try unset(["k"], in: a, clock: peers.clock)
        try send(a, b)
        let erasure = try #require(try document(a).events.values.first { $0.kind == .removal })
        // Both values go (every peer holds them, and the UNSET that removes "new" will reach C),
        // the UNSET stays until C holds it: C still gets a delta, not a whole state.
        #expect(try a.compact() == 2)
        let held = try document(a)
        #expect(held.event(at: old.dot) == nil && held.event(at: new.dot) == nil)
        #expect(held.event(at: erasure.dot) != nil)
        #expect(
            a.fullState(
                collection: "drawings", documentID: nil,
                since: try c.versions(collection: "drawings", documentID: nil))
                == nil)
        try send(a, c)
        #expect(try strokes(c)?["k"] == nil)
        #expect(try a.compact() == 1)
        #expect(try document(a).event(at: erasure.dot) == nil)
    }

    @Test func aReplicaThatNeverMetAPeerDropsEveryRemovalAndItsFirstPeerGetsTheWholeState() throws {
        let peers = try Peers([0xA1, 0xB2])
        let (a, b) = (peers.replicas[0], peers.replicas[1])
        try set(["k": .string("old"), "kept": .string("drawn")], in: a, clock: peers.clock)
        // Nothing removed yet, so nothing goes, and a peer can still be sent a delta of it all:
        // the compacted vector covers only what was dropped, not all that was stable.
        #expect(try a.compact() == 0)
        #expect(try document(a).compacted.isEmpty)
        #expect(a.fullState(collection: "drawings", documentID: nil, since: DocumentVersions()) == nil)
        try set(["k": .string("new")], in: a, clock: peers.clock)
        try unset(["k"], in: a, clock: peers.clock)
        let before = try document(a)
        #expect(a.countedPeers.isEmpty)
        // "old", "new" and the UNSET: no peer can ever need them.
        #expect(try a.compact() == 3)
        let after = try document(a)
        #expect(after.events.values.allSatisfy { !$0.isRemoved })
        #expect(after.compacted == before.versionVector)
        #expect(try strokes(a) == ["kept": .string("drawn")])

        // B, meeting A for the first time, cannot be sent a delta of what went: a whole state.
        let bVersions = try b.versions(collection: "drawings", documentID: nil)
        let whole = try #require(a.fullState(collection: "drawings", documentID: nil, since: bVersions))
        #expect(whole.delta.eventCount == after.events.count)
        try set(["b's": .string("own")], in: b, clock: peers.clock)
        _ = try b.adopt(try ReplicaFullState(decoding: whole.encoded()))
        #expect(try strokes(b) == ["kept": .string("drawn"), "b's": .string("own")])
        // What B drew goes back as an ordinary delta; "k" comes back nowhere.
        try send(b, a)
        #expect(try strokes(a) == ["kept": .string("drawn"), "b's": .string("own")])
        let readOnly = try Replica.openReadOnly(directory: peers.directories[0].path)
        #expect(throws: ReplicaError.self) { try readOnly.compact() }
    }

    @Test func aSilentPeerHoldsCompactionBackForThirtyDaysThenGetsTheWholeStateAndKeepsItsOwnWrites()
        throws
    {
        let peers = try Peers([0xA1, 0xB2, 0xC3])
        let (a, b, c) = (peers.replicas[0], peers.replicas[1], peers.replicas[2])
        try set(["k1": .string("v1"), "k2": .string("v2")], in: a, clock: peers.clock)
        try send(a, b)
        try send(a, c)  // C's ack: the last A hears from it
        let silentSince = peers.clock.now
        // C goes quiet and draws on its own; A erases k1 and B hears of it.
        try set(["offline": .string("drawn by C")], in: c, clock: peers.clock)
        try unset(["k1"], in: a, clock: peers.clock)
        try send(a, b)
        try send(b, a)

        // On the last millisecond of the thirty days C still counts: k1's value goes (C holds
        // it), the UNSET C lacks stays, so C could still be sent a delta.
        peers.clock.now = silentSince + Self.retention
        #expect(a.countedPeers == [b.peerID, c.peerID].sorted())
        #expect(try a.compact() == 1)
        let cBefore = try c.versions(collection: "drawings", documentID: nil)
        #expect(a.fullState(collection: "drawings", documentID: nil, since: cBefore) == nil)
        // A millisecond later it no longer does: the UNSET goes too.
        peers.clock.now += 1
        #expect(a.countedPeers == [b.peerID])
        #expect(try a.compact() == 1)
        #expect(try document(a).events.values.allSatisfy { !$0.isRemoved })

        // C comes back: it cannot be sent a delta (the UNSET is gone), so it gets the whole state.
        let cVersions = try c.versions(collection: "drawings", documentID: nil)
        #expect(try a.changes(collection: "drawings", documentID: nil, since: cVersions).eventCount == 0)
        let whole = try #require(a.fullState(collection: "drawings", documentID: nil, since: cVersions))
        _ = try c.adopt(try ReplicaFullState(decoding: whole.encoded()))
        #expect(try strokes(c) == ["k2": .string("v2"), "offline": .string("drawn by C")])
        // Its own offline write goes back as an ordinary delta; k1 comes back nowhere.
        try send(c, a)
        #expect(try strokes(a) == ["k2": .string("v2"), "offline": .string("drawn by C")])
        try send(a, b)
        #expect(try strokes(b) == ["k2": .string("v2"), "offline": .string("drawn by C")])
    }
}

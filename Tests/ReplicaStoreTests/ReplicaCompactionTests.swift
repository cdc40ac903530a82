import Foundation
import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore
@testable import ReplicaStore

/// Compaction in the store: the stable vector from what peers said they hold, background steps
/// that drop what it covers and write the snapshot without it, the compacted vector kept across
/// a reopen, and the file given back to the file system.
@Suite struct ReplicaCompactionTests {
    static let strokes = 2_000

    /// Values as large as a short stroke's encoding, random so nothing compresses them away.
    static func value(_ round: Int, _ index: Int) -> String {
        var generator = SplitMix64(seed: UInt64(round * 100_003 + index))
        return String(
            (0..<160).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789+/".randomElement(using: &generator)! })
    }

    func writeRound(_ round: Int, into replica: Replica, clock: ManualClock) throws {
        for batch in stride(from: 0, to: Self.strokes, by: 100) {
            clock.now += 100
            var strokes: [String: DocumentValue] = [:]
            for index in batch..<(batch + 100) {
                strokes["r\(round)-\(index)"] = .string(Self.value(round, index))
            }
            try replica.execute(
                Statements.insert(.updateLocalDiff),
                arguments: ["doc": .object(["_id": .string("drawing-1"), "strokes": .object(strokes)])])
            replica.backgroundStep()
        }
    }

    func eraseRound(_ round: Int, in replica: Replica, clock: ManualClock) throws {
        for batch in stride(from: 0, to: Self.strokes, by: 100) {
            clock.now += 100
            try replica.execute(
                Statements.unset((batch..<(batch + 100)).map { ["strokes", "r\(round)-\($0)"] }),
                arguments: ["id": .string("drawing-1")])
            replica.backgroundStep()
        }
    }

    /// Both ways: each side's changes applied by the other (its whole state when the other
    /// cannot be sent a delta), then each told what the other holds (as the sync session does
    /// with the versions it receives).
    func sync(_ a: Replica, _ b: Replica) throws {
        for (from, to) in [(a, b), (b, a)] {
            let versions = try to.versions(collection: "drawings", documentID: nil)
            if let whole = from.fullState(collection: "drawings", documentID: nil, since: versions) {
                _ = try to.adopt(whole)
                continue
            }
            let delta = try from.changes(collection: "drawings", documentID: nil, since: versions)
            if !delta.isEmpty { _ = try to.apply(delta) }
        }
        for (from, to) in [(a, b), (b, a)] {
            to.recordPeerVersions(
                try from.versions(collection: "drawings", documentID: nil), collection: "drawings",
                peer: from.peerID)
        }
    }

    func runIdleSteps(_ replica: Replica) {
        var steps = 0
        while replica.hasBackgroundWork, steps < 100_000 {
            replica.backgroundStep()
            steps += 1
        }
    }

    func fileSize(_ directory: TemporaryDirectory) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(
            atPath: directory.path + "/" + ReplicaDatabase.fileName)
        return (attributes[.size] as? Int) ?? 0
    }

    func strokes(_ replica: Replica) throws -> [String: DocumentValue] {
        try replica.execute(Statements.select(), arguments: ["id": .string("drawing-1")]).documents.first?[
            "strokes"]?.objectValue ?? [:]
    }

    @Test func aDrawingErasedAndRedrawnTenTimesCompactsToWithinTwiceAFreshReplica() throws {
        let directoryA = try TemporaryDirectory(prefix: "compaction-a")
        let directoryB = try TemporaryDirectory(prefix: "compaction-b")
        let clock = ManualClock(1_770_000_000_000)
        let final: [String: DocumentValue]
        do {
            let a = try Replica(directory: directoryA.path, configuration: clock.configuration(peer: 0xA1))
            let b = try Replica(directory: directoryB.path, configuration: clock.configuration(peer: 0xB2))
            for round in 0...10 {
                try writeRound(round, into: a, clock: clock)
                try sync(a, b)
                if round < 10 {
                    try eraseRound(round, in: a, clock: clock)
                    try sync(a, b)
                }
            }
            try sync(a, b)
            runIdleSteps(a)
            runIdleSteps(b)
            final = try strokes(a)
            #expect(final.count == Self.strokes)
            #expect(try strokes(b) == final)
            // Every removed event went: what is left is the last round and the map marker.
            #expect(
                (a.state.document(DocumentKey(collection: "drawings", id: "drawing-1"))?.events.count ?? 0)
                    <= Self.strokes + 2)
        }
        let fresh = try TemporaryDirectory(prefix: "compaction-fresh")
        do {
            let c = try Replica(directory: fresh.path, configuration: clock.configuration(peer: 0xC3))
            try writeRound(10, into: c, clock: clock)
            try c.checkpoint()
        }
        let sizeA = try fileSize(directoryA)
        let sizeB = try fileSize(directoryB)
        let sizeFresh = try fileSize(fresh)
        #expect(sizeA <= 2 * sizeFresh, "A: \(sizeA) bytes against \(sizeFresh)")
        #expect(sizeB <= 2 * sizeFresh, "B: \(sizeB) bytes against \(sizeFresh)")
        // Reopened, both show the final drawing and keep what they compacted.
        for directory in [directoryA, directoryB] {
            let reopened = try Replica.openReadOnly(directory: directory.path)
            #expect(try strokes(reopened) == final)
            let document = reopened.state.document(DocumentKey(collection: "drawings", id: "drawing-1"))
            #expect(document?.compacted.counters.isEmpty == false)
        }
    }

    @Test func aCountedPeerHoldsCompactionBackUntilItHasAcknowledged() throws {
        let directoryA = try TemporaryDirectory(prefix: "compaction-a")
        let directoryB = try TemporaryDirectory(prefix: "compaction-b")
        let clock = ManualClock(1_770_000_000_000)
        let a = try Replica(directory: directoryA.path, configuration: clock.configuration(peer: 0xA1))
        let b = try Replica(directory: directoryB.path, configuration: clock.configuration(peer: 0xB2))
        let key = DocumentKey(collection: "drawings", id: "drawing-1")
        func events(_ replica: Replica) -> Int { replica.state.document(key)?.events.count ?? 0 }
        try writeRound(0, into: a, clock: clock)
        try eraseRound(0, in: a, clock: clock)
        runIdleSteps(a)
        // Alone, no peer can need a tombstone: they all go, and B's first sync is a whole state.
        #expect(a.countedPeers.isEmpty)
        #expect(events(a) < Self.strokes)
        try sync(a, b)
        #expect(try strokes(b) == strokes(a))
        // B counts now, and lacks round 1 until the next sync: every tombstone of it stays.
        try writeRound(1, into: a, clock: clock)
        try eraseRound(1, in: a, clock: clock)
        runIdleSteps(a)
        #expect(events(a) > 2 * Self.strokes)
        try sync(a, b)
        // B holds the writes and the erase, and said so: all of it is stable now.
        runIdleSteps(a)
        #expect(a.state.document(key)?.compacted.counters.isEmpty == false)
        #expect(events(a) < Self.strokes)
        // A peer not heard from within the retention time no longer holds compaction back, and a
        // stale vector from it counts for nothing once it has gone.
        #expect(a.countedPeers == [b.peerID])
        clock.now += 31 * 24 * 3_600_000
        #expect(a.countedPeers.isEmpty)
    }

    @Test func peerVersionsAreKeptAcrossAReopen() throws {
        let directory = try TemporaryDirectory(prefix: "compaction-peers")
        let clock = ManualClock(1_770_000_000_000)
        let versions = DocumentVersions(["drawing-1": VersionVector([PeerID(0xA1): 7, PeerID(0xB2): 3])])
        do {
            let replica = try Replica(
                directory: directory.path, configuration: clock.configuration(peer: 0xA1))
            replica.recordPeerVersions(versions, collection: "drawings", peer: PeerID(0xB2))
            #expect(replica.hasBackgroundWork)
            runIdleSteps(replica)
        }
        let reopened = try Replica(directory: directory.path, configuration: clock.configuration(peer: 0xA1))
        #expect(reopened.countedPeers == [PeerID(0xB2)])
        #expect(
            reopened.peerVersions.rows[DocumentKey(collection: "drawings", id: "drawing-1")]?[PeerID(0xB2)]?
                .vector
                == versions["drawing-1"])
    }
}

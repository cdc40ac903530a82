import ReplicaCore
import ReplicaCoreTestSupport
import Testing

/// The named conflict scenarios, each between two in-memory replicas that write concurrently and
/// then sync both ways.
@Suite struct MergeScenarioTests {
    static let alice = PeerID(0xA11C_E000_0000_0001)
    static let bob = PeerID(0xB0B0_0000_0000_0002)

    /// Two replicas that both hold the document `d` with an empty `strokes` map.
    func twoSyncedReplicas() throws -> (ReplicaState, ReplicaState) {
        var a = ReplicaState(peerID: Self.alice)
        var b = ReplicaState(peerID: Self.bob)
        _ = try a.execute(
            Statements.insert(), arguments: ["doc": .object(["_id": .string("d"), "strokes": .object([:])])],
            wall: 1)
        try b.pull(from: a)
        return (a, b)
    }

    func syncBothWays(_ a: inout ReplicaState, _ b: inout ReplicaState) throws {
        try a.pull(from: b)
        try b.pull(from: a)
    }

    func setStroke(_ replica: inout ReplicaState, _ key: String, _ value: String, wall: Int64) throws {
        _ = try replica.execute(
            Statements.set(["strokes", key]), arguments: ["id": .string("d"), "value": .string(value)],
            wall: wall)
    }

    @Test func addsOnDifferentKeysAreBothKept() throws {
        var (a, b) = try twoSyncedReplicas()
        try setStroke(&a, "k1", "from alice", wall: 10)
        try setStroke(&b, "k2", "from bob", wall: 10)
        try syncBothWays(&a, &b)
        let expected: DocumentValue = .object(["k1": .string("from alice"), "k2": .string("from bob")])
        #expect(a.fields("d")?["strokes"] == expected)
        #expect(b.fields("d") == a.fields("d"))
    }

    @Test func concurrentEditsOfOneKeyPickTheSameWinnerEverywhere() throws {
        var (a, b) = try twoSyncedReplicas()
        try setStroke(&a, "k", "alice", wall: 20)
        try setStroke(&b, "k", "bob", wall: 30)
        var a2 = a, b2 = b
        try syncBothWays(&a, &b)
        try syncBothWays(&b2, &a2)  // the other order
        let winner = DocumentValue.object(["k": .string("bob")])  // the later timestamp
        #expect(a.fields("d")?["strokes"] == winner)
        #expect(b.fields("d")?["strokes"] == winner)
        #expect(a2.fields("d")?["strokes"] == winner)
        #expect(b2.fields("d")?["strokes"] == winner)
    }

    @Test func removeLosesToAConcurrentEdit() throws {
        var (a, b) = try twoSyncedReplicas()
        try setStroke(&a, "k", "old", wall: 5)
        try b.pull(from: a)
        // Bob's edit has the earlier timestamp: add-wins must not depend on time.
        try setStroke(&b, "k", "edited", wall: 6)
        _ = try a.execute(Statements.unset([["strokes", "k"]]), arguments: ["id": .string("d")], wall: 50)
        try syncBothWays(&a, &b)
        #expect(a.fields("d")?["strokes"] == .object(["k": .string("edited")]))
        #expect(b.fields("d") == a.fields("d"))
    }

    @Test func writesInTheSameMillisecondFromTwoPeersAreBothKept() throws {
        var (a, b) = try twoSyncedReplicas()
        try setStroke(&a, "2026-03-25T16:20:14.127Z~\(Self.alice.shortHex)", "a", wall: 77)
        try setStroke(&b, "2026-03-25T16:20:14.127Z~\(Self.bob.shortHex)", "b", wall: 77)
        try setStroke(&a, "same", "a", wall: 77)
        try setStroke(&b, "same", "b", wall: 77)
        try syncBothWays(&a, &b)
        let strokes = a.fields("d")?["strokes"]?.objectValue ?? [:]
        #expect(strokes.count == 3)
        #expect(strokes["same"] == .string("b"))  // equal timestamps: the higher peer id (bob) wins
        #expect(b.fields("d") == a.fields("d"))
    }

    @Test func deletedDocumentReturnsWithAConcurrentEdit() throws {
        var (a, b) = try twoSyncedReplicas()
        _ = try a.execute(Statements.delete(), arguments: ["id": .string("d")], wall: 40)
        #expect(a.fields("d") == nil)
        try setStroke(&b, "k", "kept", wall: 30)
        try syncBothWays(&a, &b)
        #expect(a.fields("d") == ["strokes": .object(["k": .string("kept")])])
        #expect(b.fields("d") == a.fields("d"))
    }

    @Test func deleteThatSawEverythingLeavesATombstoneEverywhere() throws {
        var (a, b) = try twoSyncedReplicas()
        try setStroke(&a, "k", "v", wall: 10)
        try b.pull(from: a)
        _ = try b.execute(Statements.delete(), arguments: ["id": .string("d")], wall: 20)
        try a.pull(from: b)
        #expect(a.fields("d") == nil)
        #expect(a.documentIDs(in: "drawings") == ["d"])  // the tombstone is still there
        // Inserting again after a delete is not a conflict.
        _ = try a.execute(Statements.insert(), arguments: ["doc": .object(["_id": .string("d")])], wall: 30)
        #expect(a.fields("d") == [:])
    }

    @Test func laterLocalWriteWinsOverAFarFutureTimestampItHasSeen() throws {
        var (a, b) = try twoSyncedReplicas()
        let oneDay: Int64 = 86_400_000
        try setStroke(&b, "k", "from the future", wall: 1_000 + oneDay)
        try a.pull(from: b, wall: 1_000)
        #expect(a.clock.latest.milliseconds < oneDay)  // the clock did not jump a day ahead
        try setStroke(&a, "k", "now", wall: 1_001)
        try b.pull(from: a)
        #expect(a.fields("d")?["strokes"] == .object(["k": .string("now")]))
        #expect(b.fields("d") == a.fields("d"))
    }

    @Test func remoteTimestampWithinDriftMovesTheClockForward() throws {
        var (a, b) = try twoSyncedReplicas()
        try setStroke(&b, "k", "b", wall: 5_000)
        try a.pull(from: b, wall: 4_000)
        try setStroke(&a, "j", "a", wall: 4_001)
        #expect(a.clock.latest > HybridTimestamp(milliseconds: 5_000, counter: 0))
    }
}

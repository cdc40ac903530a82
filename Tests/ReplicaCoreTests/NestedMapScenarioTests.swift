import ReplicaCore
import ReplicaCoreTestSupport
import Testing

/// The behaviour of nested maps that drawings rely on to merge erasures (`sweeps.<stroke>.<sweep>`
/// beside `strokes.<stroke>`), between two in-memory replicas writing concurrently, synced in
/// both orders.
@Suite struct NestedMapScenarioTests {
    static let alice = PeerID(0xA11C_E000_0000_0001)
    static let bob = PeerID(0xB0B0_0000_0000_0002)

    /// Two replicas holding `d` with `strokes.k` = "drawn".
    func twoSyncedReplicas() throws -> (ReplicaState, ReplicaState) {
        var a = ReplicaState(peerID: Self.alice)
        var b = ReplicaState(peerID: Self.bob)
        try upsert(&a, ["strokes": .object(["k": .string("drawn")])], wall: 1)
        try b.pull(from: a)
        return (a, b)
    }

    func upsert(_ replica: inout ReplicaState, _ fields: [String: DocumentValue], wall: Int64) throws {
        var document = fields
        document["_id"] = .string("d")
        _ = try replica.execute(
            Statements.insert(.updateLocalDiff), arguments: ["doc": .object(document)], wall: wall)
    }

    func sweep(_ replica: inout ReplicaState, _ key: String, wall: Int64) throws {
        try upsert(&replica, ["sweeps": .object(["k": .object([key: .string(key)])])], wall: wall)
    }

    func unset(_ replica: inout ReplicaState, _ paths: [[String]], wall: Int64) throws {
        _ = try replica.execute(Statements.unset(paths), arguments: ["id": .string("d")], wall: wall)
    }

    /// Both delivery orders, each twice (a duplicate changes nothing): the merged fields.
    func merged(_ a: ReplicaState, _ b: ReplicaState) throws -> [String: DocumentValue]? {
        var (a1, b1, a2, b2) = (a, b, a, b)
        try a1.pull(from: b1)
        try b1.pull(from: a1)
        try b2.pull(from: a2)
        try a2.pull(from: b2)
        try a2.pull(from: b2)
        #expect(a1.fields("d") == b1.fields("d"))
        #expect(a2.fields("d") == a1.fields("d") && b2.fields("d") == a1.fields("d"))
        return a1.fields("d")
    }

    @Test func concurrentEntriesOfANewNestedMapAreAllKept() throws {
        var (a, b) = try twoSyncedReplicas()
        try sweep(&a, "s1", wall: 10)
        try sweep(&b, "s2", wall: 10)
        let fields = try merged(a, b)
        #expect(fields?["sweeps"] == .object(["k": .object(["s1": .string("s1"), "s2": .string("s2")])]))
        #expect(fields?["strokes"] == .object(["k": .string("drawn")]))
    }

    @Test func unsettingOneNestedEntryKeepsAConcurrentSibling() throws {
        var (a, b) = try twoSyncedReplicas()
        try sweep(&a, "s1", wall: 10)
        try b.pull(from: a)
        try unset(&a, [["sweeps", "k", "s1"]], wall: 20)
        try sweep(&b, "s2", wall: 20)
        let fields = try merged(a, b)
        #expect(fields?["sweeps"] == .object(["k": .object(["s2": .string("s2")])]))
    }

    /// The rule that makes a removed stroke stay removed: an UNSET removes every event it saw at
    /// its path, and a concurrent write beside it (a sweep) survives without bringing it back.
    @Test func aConcurrentWriteBesideARemovedEntryDoesNotBringItBack() throws {
        var (a, b) = try twoSyncedReplicas()
        try sweep(&a, "s1", wall: 10)
        try b.pull(from: a)
        try unset(&a, [["strokes", "k"], ["sweeps", "k"]], wall: 20)
        try sweep(&b, "s2", wall: 30)
        let fields = try merged(a, b)
        #expect(fields?["strokes"] == .object([:]))
        #expect(fields?["sweeps"] == .object(["k": .object(["s2": .string("s2")])]))
    }

    /// Why the sweeps are not stored under `strokes.k` itself: a write below a register value
    /// turns it into a map and drops the value it saw, so an old entry would have to be copied
    /// into the new map, and that copy would survive a concurrent removal of the entry.
    @Test func aWriteBelowARegisterReplacesItAndSurvivesAConcurrentUnset() throws {
        var (a, b) = try twoSyncedReplicas()
        try upsert(&a, ["strokes": .object(["k": .object(["base": .string("drawn")])])], wall: 10)
        try unset(&b, [["strokes", "k"]], wall: 20)
        let fields = try merged(a, b)
        #expect(fields?["strokes"] == .object(["k": .object(["base": .string("drawn")])]))
    }
}

import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore

/// What a document observer is told of a commit: only the paths at which the document may show
/// something else (`shownChangedPaths(of:)`). Whatever the statements and the merges, a mirror
/// that applies only those paths' patches must equal a fresh read after every commit; and a
/// delta whose events all lose, or whose map markers arrive where maps already show, tells none.
@Suite struct ShownChangedPathsTests {
    static let collection = "drawings"

    @Test(arguments: UInt64(1)...16)
    func aMirrorOfTheShownPatchesEqualsAFreshReadAfterEveryCommit(seed: UInt64) throws {
        let workload = RandomWorkload(scope: .document)
        var walk = TwoReplicaWalk(seed: seed, workload: workload)
        let first = walk.replicas[0].peerID
        var mirrors: [[String: [String: DocumentValue]?]] = [[:], [:]]
        var leftOut = 0
        // Close wall times, so that concurrent writes race and some restate the same value.
        try walk.run(steps: 400, wall: { Int64($0 / 3) }) { change, step, replica, _ in
            let what = if case .wrote = change { "" } else { " apply" }
            leftOut += Self.expectMirrored(
                &replica, &mirrors[replica.peerID == first ? 0 : 1], workload,
                "seed \(seed) step \(step)\(what)")
        }
        // The filter did something: some changed paths were not told.
        #expect(leftOut > 0, "seed \(seed): every changed path was told")
    }

    /// A peer that wrote every key concurrently, earlier: its delta to the later writer changes
    /// nothing shown (its values, its root marker and `_id` all lose), and the delta back tells
    /// each key and nothing else (the root marker and `_id` that win show what was shown).
    @Test func concurrentWritesOfTheSameKeysTellOnlyTheKeysWhoseValueChanged() throws {
        var a = ReplicaState(peerID: PeerID(1))
        var b = ReplicaState(peerID: PeerID(2))
        let keys = (0..<20).map { "k\($0)" }
        for (index, key) in keys.enumerated() {
            try Self.write(key, .string("a\(index)"), into: &a, wall: 100 + Int64(index))
        }
        for (index, key) in keys.enumerated() {
            try Self.write(key, .string(index == 0 ? "a0" : "b\(index)"), into: &b, wall: 200 + Int64(index))
        }
        _ = a.takeUnsaved()
        _ = b.takeUnsaved()
        let key = DocumentKey(collection: Self.collection, id: "doc")

        let shownInB = try Self.applyAll(from: a, to: &b, wall: 300)
        #expect(shownInB == [])
        #expect(b.patches(of: key, orderedPaths: shownInB) == [])

        let shownInA = try Self.applyAll(from: b, to: &a, wall: 300)
        // k0 won with the value A already showed: no change there either.
        #expect(shownInA == keys.dropFirst().map { ["strokes", $0] })
        let patches = a.patches(of: key, orderedPaths: shownInA)
        #expect(
            patches
                == keys.dropFirst().enumerated().map { offset, key in
                    DocumentPatch(path: ["strokes", key], value: .string("b\(offset + 1)"))
                })
        #expect(a.document(key) == b.document(key))
    }

    /// Two peers writing different keys: each delta tells exactly the keys the other wrote.
    @Test func disjointWritesTellTheNewKeysAlone() throws {
        var a = ReplicaState(peerID: PeerID(1))
        var b = ReplicaState(peerID: PeerID(2))
        for index in 0..<10 { try Self.write("a\(index)", .number(Double(index)), into: &a, wall: 100) }
        for index in 0..<10 { try Self.write("b\(index)", .number(Double(index)), into: &b, wall: 200) }
        _ = a.takeUnsaved()
        _ = b.takeUnsaved()
        #expect(try Self.applyAll(from: a, to: &b, wall: 300) == (0..<10).map { ["strokes", "a\($0)"] })
        #expect(try Self.applyAll(from: b, to: &a, wall: 300) == (0..<10).map { ["strokes", "b\($0)"] })
    }

    /// A removed event that may have been the winner is told, as is an UNSET of the last entry.
    @Test func anUnsetAndAnOverwriteAreTold() throws {
        var a = ReplicaState(peerID: PeerID(1))
        var b = ReplicaState(peerID: PeerID(2))
        try Self.write("k", .string("one"), into: &a, wall: 100)
        try Self.write("j", .string("one"), into: &a, wall: 100)
        _ = a.takeUnsaved()
        _ = try Self.applyAll(from: a, to: &b, wall: 100)
        try Self.write("k", .string("two"), into: &b, wall: 200)
        _ = try b.execute(
            Statements.unset([["strokes", "j"]]), arguments: ["id": .string("doc")], wall: 200)
        _ = b.takeUnsaved()
        let shown = try Self.applyAll(from: b, to: &a, wall: 300)
        #expect(Set(shown) == [["strokes", "k"], ["strokes", "j"]])
        let key = DocumentKey(collection: Self.collection, id: "doc")
        var mirror: [String: DocumentValue]? = [
            "strokes": .object(["k": .string("one"), "j": .string("one")])
        ]
        for patch in a.patches(of: key, orderedPaths: shown) { patch.apply(to: &mirror) }
        #expect(mirror == a.document(key)?.fields)
        #expect(mirror == ["strokes": .object(["k": .string("two")])])
    }

    /// Checks what one commit tells against a mirror and a fresh read; returns how many changed
    /// paths it did not tell.
    private static func expectMirrored(
        _ state: inout ReplicaState, _ mirrors: inout [String: [String: DocumentValue]?],
        _ workload: RandomWorkload, _ comment: String
    ) -> Int {
        var leftOut = 0
        for change in state.takeUnsaved() {
            let told = state.shownChangedPaths(of: change)
            let shown = told.map(\.path)
            let written = state.changedPaths(of: change)
            #expect(Set(shown).count == shown.count, "\(comment): a path told twice")
            #expect(Set(shown).isSubset(of: written), "\(comment): a path told that no event changed")
            leftOut += written.count - shown.count
            var mirror = mirrors[change.key.id] ?? nil
            let patches = state.patches(of: change.key, shown: told)
            #expect(patches == state.patches(of: change.key, orderedPaths: shown), "\(comment)")
            for patch in patches { patch.apply(to: &mirror) }
            mirrors[change.key.id] = mirror
        }
        for id in workload.documentIDs {
            let fresh = state.document(DocumentKey(collection: collection, id: id))?.fields
            #expect((mirrors[id] ?? nil) == fresh, "\(comment) document \(id)")
        }
        return leftOut
    }

    private static func write(
        _ key: String, _ value: DocumentValue, into state: inout ReplicaState, wall: Int64
    )
        throws
    {
        _ = try state.upsert(
            [DocumentEntry(path: ["strokes", key], value: value)],
            into: DocumentKey(collection: collection, id: "doc"), wall: wall)
    }

    /// Applies what `to` lacks of `from` through the wire format; returns the paths it shows.
    private static func applyAll(from: ReplicaState, to: inout ReplicaState, wall: Int64) throws -> [[String]]
    {
        let since = to.versions(collection: collection, documentID: nil)
        let delta = try ReplicaDelta(
            decoding: from.changes(collection: collection, documentID: nil, since: since).encoded())
        guard case .applied = try to.apply(delta, wall: wall) else {
            Issue.record("a delta from the versions themselves was refused")
            return []
        }
        return to.takeUnsaved().flatMap { to.shownChangedPaths(of: $0).map(\.path) }
    }
}

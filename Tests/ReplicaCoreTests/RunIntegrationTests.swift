import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore

/// A delta's events integrated a run at a time (`DocumentState.integrate(taking:touched:)`,
/// runs of new events under one parent walking the levels above once) make the same document as
/// integrating them one by one: the same events and forms, vectors, and at every path the same
/// live events and removal facts; and the same dots are touched.
@Suite struct RunIntegrationTests {
    @Test(arguments: UInt64(1)...24)
    func aDeltaIntegratedInRunsIsTheDocumentOfItsEventsOneByOne(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let workload = RandomWorkload(scope: .document)
        // Three writers, each step of the workload (values, maps, registers where maps were and
        // maps under registers, unsets, deletes) on one of them, and now and then one's changes
        // to another: so a delta brings events a third writer's removals already cover.
        var writers = (1...3).map { ReplicaState(peerID: PeerID(seed &* 3 &+ UInt64($0))) }
        var runs = 0
        for step in 0..<600 {
            let writer = Int(rng.next() % 3)
            try workload.step(&writers[writer], wall: Int64(step / 4), &rng)
            guard rng.next() % 4 == 0 else { continue }
            let other = (writer + 1 + Int(rng.next() % 2)) % 3
            let since = writers[other].versions(collection: "drawings", documentID: nil)
            let delta = writers[writer].changes(collection: "drawings", documentID: nil, since: since)
            for document in delta.documents {
                let key = DocumentKey(collection: "drawings", id: document.documentID)
                let base = writers[other].document(key) ?? DocumentState()
                var oneByOne = base
                var touchedOneByOne: [Dot] = []
                for event in document.events { oneByOne.integrate(event, touched: &touchedOneByOne) }
                var inRuns = base
                var touchedInRuns: [Dot] = []
                var events = document.events
                events.withUnsafeMutableBufferPointer {
                    inRuns.integrate(taking: $0, touched: &touchedInRuns)
                }
                #expect(
                    inRuns.isIdentical(to: oneByOne), "seed \(seed), step \(step), \(document.documentID)")
                #expect(Set(touchedInRuns) == Set(touchedOneByOne), "seed \(seed), step \(step)")
                if document.events.count > 1 { runs += 1 }
            }
            _ = try writers[other].apply(delta, wall: Int64(step))
        }
        #expect(runs > 0)
    }

    /// A run whose events a removal in the same delta already covers: peer 3 draws three
    /// strokes, peer 2 receives them and deletes the document, and peer 1 gets the delete and
    /// peer 3's strokes as peer 3 sent them, live (as from a peer 2 that compacted them away, or
    /// from peer 3 itself, in one delta). In dot order the delete (peer 2) comes first, so the
    /// strokes are removed on arrival by the removal recorded at the root, which the run's walk
    /// above its nodes must see.
    @Test func aRunCoveredByARemovalAboveItArrivesRemoved() throws {
        var drawer = ReplicaState(peerID: PeerID(3))
        var deleter = ReplicaState(peerID: PeerID(2))
        _ = try drawer.execute(
            Statements.insert(.update),
            arguments: [
                "doc": .object([
                    "_id": .string("d"), "strokes": .object(["a": .string("1"), "b": .string("2")]),
                ])
            ], wall: 1)
        _ = try drawer.execute(
            Statements.set(["strokes", "c"]), arguments: ["id": .string("d"), "value": .string("3")], wall: 2)
        let drawn = drawer.changes(collection: "drawings", documentID: nil, since: DocumentVersions())
        _ = try deleter.apply(drawn, wall: 3)
        _ = try deleter.execute(Statements.delete(), arguments: ["id": .string("d")], wall: 4)
        let deletion = deleter.changes(collection: "drawings", documentID: nil, since: DocumentVersions())
        let delete = try #require(deletion.documents.first?.events.filter { $0.dot.peer == PeerID(2) })
        let strokes = try #require(drawn.documents.first?.events)
        #expect(strokes.allSatisfy { !$0.isRemoved })
        let events = delete + strokes
        var oneByOne = DocumentState()
        var touched: [Dot] = []
        for event in events { oneByOne.integrate(event, touched: &touched) }
        var inRuns = DocumentState()
        var copy = events
        copy.withUnsafeMutableBufferPointer { inRuns.integrate(taking: $0, touched: &touched) }
        #expect(inRuns.isIdentical(to: oneByOne))
        #expect(!oneByOne.isVisible)
        #expect(!inRuns.isVisible)
    }
}

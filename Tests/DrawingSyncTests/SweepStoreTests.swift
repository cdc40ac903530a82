import DrawingSync
import ReplicaCore
import ReplicaStore
import StrokeKit
import StrokeKitTestSupport
import Testing

/// Drawings stored before sweeps existed, and the `sweeps` map as the model reads it.
@Suite struct SweepStoreTests {
    typealias F = StrokeFixtures

    static let line = F.group(
        Fixtures.stroke([(1.5, 2.5), (30.5, 2.5)], key: F.key(0, peer: "aaaaaa"), width: 0.25))
    /// What today's eraser stored for the line cut through column 5: two pieces in one value.
    static let cutTheOldWay = MaskEraser(brush: EraserBrush(radius: 0.5)).erase(
        [line], along: Fixtures.points([(5.5, 0.5), (5.5, 4.5)]))[0]

    static func sweep(across x: Double, of group: StrokeGroup = line) -> StrokeMask {
        StrokeMask(
            sweeps: MaskEraser(brush: EraserBrush(radius: 0.5)).sweep(
                along: Fixtures.points([(x, 0.5), (x, 4.5)]), near: group))
    }

    /// An old peer's drawing: one string per stroke, no `sweeps` map.
    func writeTodaysFormat(_ groups: StrokeGroup..., into peer: TestPeer) throws {
        try peer.replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE_LOCAL_DIFF",
            arguments: [
                "doc": .object(["_id": .string(peer.drawingID), "strokes": .object(F.strokesMap(groups))])
            ])
    }

    @Test func aDrawingInTodaysFormatShowsTheSameAndIsErasedTheNewWay() throws {
        let a = try TestPeer(peer: 0xA000_0000_0000_0001)
        let b = try TestPeer(peer: 0xB000_0000_0000_0002)
        try writeTodaysFormat(Self.cutTheOldWay, into: a)
        #expect(Self.cutTheOldWay.pieces.count == 2)
        #expect(a.coordinator.drawing.groups == [Self.cutTheOldWay])
        #expect(a.text == ["", "", " ▄▄▄▄ " + String(repeating: "▄", count: 25)])
        let stored = try a.storedStrokes()

        let sweepKey = try #require(try a.sweep(Self.line.key, along: [(20.5, 0.5), (20.5, 4.5)]))
        #expect(a.text == ["", "", " ▄▄▄▄ " + String(repeating: "▄", count: 14) + " ▄▄▄▄▄▄▄▄▄▄"])
        // The old value stays as it was: it is the stroke as drawn; the erase is a new entry.
        #expect(try a.storedStrokes() == stored)
        let sweeps = try a.storedDocument()["sweeps"]?.objectValue?[Self.line.key.rawValue]?.objectValue
        #expect(sweeps.map { Array($0.keys) } == [sweepKey.rawValue])

        try syncBoth(a, b)
        #expect(b.text == a.text)
        #expect(try b.storedText() == a.text)
    }

    @Test func sweepsWithoutTheirStrokeShowNothingAndApplyWhenItComesBack() {
        var model = DrawingModel()
        let sweepKey = F.key(10, peer: "bbbbbb")
        let sweepValue = EncodedGroup(Self.line.settingSweep(Self.sweep(across: 9.5), for: sweepKey))
            .sweepValues[sweepKey]!
        let sweeps: [String: DocumentValue] = [
            Self.line.key.rawValue: .object([sweepKey.rawValue: .string(sweepValue)])
        ]
        let orphan = model.update(fromStrokesMap: [:], sweeps: sweeps)
        #expect(orphan.changed.isEmpty && orphan.problems.isEmpty)
        #expect(model.drawing().isEmpty)

        var restored = DrawingModel.StoredEntries()
        restored.bases[Self.line.key.rawValue] = .some(.string(EncodedGroup(Self.line).value))
        let update = model.update(restored)
        let group = update.changed[Self.line.key].flatMap { $0 }
        #expect(group?.sweeps.keys.map { $0 } == [sweepKey])
        #expect(group?.pieces.count == 2)
    }

    @Test func oneSweepEntryIsReadAloneAndAnUnreadableOneIsReported() throws {
        var model = DrawingModel()
        _ = model.update(fromStrokesMap: F.strokesMap(Self.line))
        let readBefore = model.readCount
        let good = F.key(10, peer: "bbbbbb")
        let value = EncodedGroup(Self.line.settingSweep(Self.sweep(across: 9.5), for: good)).sweepValues[
            good]!
        var entries = DrawingModel.StoredEntries()
        entries.sweeps[Self.line.key.rawValue] = [good.rawValue: .some(.string(value))]
        let update = model.update(entries)
        #expect(model.readCount - readBefore == 1)
        #expect(update.changed[Self.line.key]??.sweeps.count == 1)

        var broken = DrawingModel.StoredEntries()
        broken.sweeps[Self.line.key.rawValue] = [
            F.key(11, peer: "cccccc").rawValue: .some(.string("AQ==")), "nonsense": .some(.string(value)),
            F.key(12, peer: "cccccc").rawValue: .some(.number(1)),
        ]
        let reported = model.update(broken)
        #expect(reported.problems.count == 3)
        #expect(reported.changed.isEmpty)
        #expect(model.drawing().first?.sweeps.keys.map { $0 } == [good])
        #expect(reported.problems.map(\.description).allSatisfy { $0.hasPrefix("ignored") })
    }

    @Test func undoingASweepIsOneUnsetAndRemovingAStrokeTakesItsSweeps() throws {
        let peer = try TestPeer(peer: 0xA000_0000_0000_0001)
        try peer.draw(Self.line)
        let sweepKey = try #require(try peer.sweep(Self.line.key, along: [(9.5, 0.5), (9.5, 4.5)]))
        try peer.sweep(Self.line.key, along: [(19.5, 0.5), (19.5, 4.5)])
        let before = try peer.replica.versions(collection: "drawings", documentID: "drawing-1")
        try peer.undoSweep(sweepKey, of: Self.line.key)
        let undo = try peer.replica.changes(collection: "drawings", documentID: "drawing-1", since: before)
        #expect(undo.eventCount == 1)
        #expect(
            undo.documents.first?.events.first?.path == ["sweeps", Self.line.key.rawValue, sweepKey.rawValue])
        #expect(undo.documents.first?.events.first?.kind == .removal)

        try peer.erase(Self.line.key)
        let document = try peer.storedDocument()
        #expect(document["strokes"] == .object([:]))
        #expect(document["sweeps"] == .object([:]))
    }
}

extension StrokeFixtures {
    static func strokesMap(_ groups: [StrokeGroup]) -> [String: DocumentValue] {
        Dictionary(uniqueKeysWithValues: groups.map { ($0.key.rawValue, .string(EncodedGroup($0).value)) })
    }
}

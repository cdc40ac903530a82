import DrawingSync
import ReplicaCore
import ReplicaStore
import StrokeKit
import StrokeKitTestSupport
import Testing

/// Text strokes between two real replicas, and a stroke kind this build does not know.
@Suite struct TextStrokeSyncTests {
    typealias F = StrokeFixtures

    func peers() throws -> (TestPeer, TestPeer) {
        let a = try TestPeer(peer: 0xA000_0000_0000_0001)
        let b = try TestPeer(peer: 0xB000_0000_0000_0002)
        try syncBoth(a, b)
        return (a, b)
    }

    @Test func textTypedOnOnePeerShowsOnTheOther() throws {
        let (a, b) = try peers()
        let text = F.group(Fixtures.text("hello 世界\nbye", at: (2, 3), key: F.key(0, peer: "aaaaaa")))
        try a.draw(text)
        try deliver(from: a, to: b)
        #expect(b.coordinator.drawing[text.key] == text)
        #expect(try b.storedStrokes() == a.storedStrokes())
        let stored = try #require(try a.storedStrokes()[text.key.rawValue]?.stringValue)
        #expect(try Base64.decode(stored).first == StrokeGroupCodec.kindsVersion)
        #expect(
            DrawingExporter.export(b.coordinator.drawing.groups, as: .text)
                == DrawingExporter.export(a.coordinator.drawing.groups, as: .text))
    }

    @Test func anErasureOfTextOnOnePeerMergesWithTheOthers() throws {
        let (a, b) = try peers()
        let text = F.group(Fixtures.text("abcdef", at: (0, 0), key: F.key(0, peer: "aaaaaa")))
        try a.draw(text)
        try deliver(from: a, to: b)
        let eraser = MaskEraser(brush: EraserBrush(radius: 0.25))
        func erase(_ peer: TestPeer, cell: Double, sweep: StrokeKey) throws {
            let group = try #require(peer.coordinator.drawing[text.key])
            let passes = eraser.sweep(along: [CanvasPoint(x: cell + 0.5, y: 0.5)], near: group)
            try peer.draw(group.addingPasses(passes, toSweep: sweep))
        }
        try erase(a, cell: 1, sweep: F.key(10, peer: "aaaaaa"))
        try erase(b, cell: 4, sweep: F.key(11, peer: "bbbbbb"))
        try syncBoth(a, b)
        #expect(a.coordinator.drawing == b.coordinator.drawing)
        #expect(DrawingExporter.export(a.coordinator.drawing.groups, as: .text) == "a cd f\n")
        // The text as typed was written once; the erasures are sweeps beside it.
        #expect(try a.storedStrokes()[text.key.rawValue]?.stringValue == EncodedGroup(text).value)
    }

    @Test func aStrokeKindThisBuildDoesNotKnowIsKeptUntouched() throws {
        let (a, b) = try peers()
        let key = F.key(0, peer: "cccccc")
        // A kind-9 piece, as a newer build would write it.
        let keyBytes = Array(key.rawValue.utf8)
        let body: [UInt8] = [0x01, 0x02, 0x03]
        let raw = Base64.encode(
            [StrokeGroupCodec.kindsVersion, UInt8(keyBytes.count)] + keyBytes + [
                0x01, 0x09, 0x20, 0x20, 0x03,
            ] + body)
        try a.replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc) ON ID CONFLICT DO UPDATE_LOCAL_DIFF",
            arguments: [
                "doc": .object([
                    "_id": .string("drawing-1"), "strokes": .object([key.rawValue: .string(raw)]),
                ])
            ])
        try deliver(from: a, to: b)
        #expect(b.remoteChanges.flatMap(\.problems).isEmpty, "\(b.remoteChanges.flatMap(\.problems))")
        let shown = try #require(b.coordinator.drawing[key])
        #expect(shown.base[0].kind == .unknown(UnknownStrokeKind(code: 9, body: body)))
        #expect(Raster.render([shown], origin: (0, 0), width: 3, height: 2, mode: .block).rows == ["", " ◇"])

        // B draws beside it, erases across it and clears the drawing: the entry stays as it came.
        try b.draw(F.group(F.stroke(at: 5, key: F.key(20, peer: "bbbbbb"))))
        let eraser = MaskEraser(brush: EraserBrush(radius: 3))
        var drawing = b.coordinator.drawing
        for group in drawing.groups {
            let passes = eraser.sweep(along: [CanvasPoint(x: 1.5, y: 1.5)], near: group)
            if !passes.isEmpty {
                drawing.insert(group.addingPasses(passes, toSweep: F.key(30, peer: "bbbbbb")))
            }
        }
        #expect(drawing[key] == shown)
        try b.erase(F.key(20, peer: "bbbbbb"))
        try syncBoth(a, b)
        #expect(try a.storedStrokes()[key.rawValue] == .string(raw))
        #expect(try b.storedStrokes()[key.rawValue] == .string(raw))
        #expect(a.coordinator.drawing == b.coordinator.drawing)
    }
}

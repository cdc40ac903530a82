import DrawingSync
import Foundation
import ReplicaCore
import ReplicaStore
import StrokeKit
import TestSupport
import Testing

/// A large drawing opened in a real terminal (tmux): the app decodes the strokes on screen
/// first (from the bounds cache the last close left) and the rest while the user already draws.
/// A stroke drawn at once is saved, every stored stroke stays as it was, and wherever the view
/// goes the screen shows what an export of the replica shows there.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct LargeDrawingOpenEndToEndTests {
    static let strokeCount = 4_000
    static let width = 100
    static let height = 30

    /// Short strokes over 320x90 cells, stored in the replica at `directory` (the directory
    /// `--store` names), and the bounds cache a close of the drawing leaves.
    func storeLargeDrawing(in directory: String) throws -> [String: DocumentValue] {
        let replica = try Replica(directory: directory)
        try DrawingList(replica: replica).create(id: "drawing-1", name: "Large")
        let coordinator = DrawingSyncCoordinator(replica: replica, drawingID: "drawing-1")
        var random = SplitMix64(seed: 0x1A46E)
        coordinator.edit(now: 0) { drawing in
            for index in 0..<Self.strokeCount {
                let x = Double.random(in: 0..<316, using: &random)
                let y = Double.random(in: 0..<88, using: &random)
                guard
                    let key = StrokeKey(
                        creationMilliseconds: 1_774_455_614_000 + Int64(index), peerSuffix: "e2e001"),
                    let stroke = Stroke(
                        key: key, ink: Ink(tool: .pen, colour: UInt8(1 + index % 9), width: 1),
                        path: [
                            StrokePoint(x: x, y: y, timeOffsetMilliseconds: 0),
                            StrokePoint(x: x + 3, y: y + 1.5, timeOffsetMilliseconds: 16),
                        ],
                        createdAtMilliseconds: key.creationMilliseconds),
                    let group = StrokeGroup(key: key, pieces: [stroke])
                else { continue }
                drawing.insert(group)
            }
        }
        try coordinator.flush()
        try coordinator.saveBoundsCache()
        coordinator.close()
        return try storedStrokes(replica)
    }

    func storedStrokes(_ replica: Replica) throws -> [String: DocumentValue] {
        let result = try replica.execute(
            "SELECT * FROM drawings WHERE _id = :id", arguments: ["id": .string("drawing-1")])
        return result.documents.first?["strokes"]?.objectValue ?? [:]
    }

    /// The cells of `screen` (canvas rows) that differ from the export's at `origin`, leaving
    /// out the edges (the markers of ink beyond them), the row above the status bar (messages)
    /// and the keyboard cursor.
    func differences(_ screen: [String], export: String, origin: (x: Int, y: Int)) -> Int {
        let lines = export.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        var count = 0
        for row in 1..<(Self.height - 3) {
            let shown = Array(row < screen.count ? screen[row] : "")
            let exported = origin.y + row < lines.count ? lines[origin.y + row] : []
            for column in 1..<(Self.width - 1) {
                let onScreen = column < shown.count ? shown[column] : " "
                let inExport = origin.x + column < exported.count ? exported[origin.x + column] : " "
                if onScreen != inExport && onScreen != "+" { count += 1 }
            }
        }
        return count
    }

    @Test func aLargeDrawingOpensAtOnceTakesAStrokeAndShowsEverything() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let store = try TemporaryDirectory(prefix: "drawtogether-large")
        let before = try storeLargeDrawing(in: store.path)
        #expect(before.count == Self.strokeCount)
        let app = try AppInstance(
            runtimeDirectory: runtime.path, sharing: store, width: Self.width, height: Self.height)
        try app.waitUntilReady()
        // Drawn at once, while the strokes off screen may still be loading.
        try app.drag((3...40).map { ($0, 2) })
        let saved = ContinuousClock.now + .seconds(30)
        var after: [String: DocumentValue] = [:]
        while ContinuousClock.now < saved {
            after = try storedStrokes(Replica.openReadOnly(directory: store.path))
            if after.count == Self.strokeCount + 1 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(after.count == Self.strokeCount + 1)
        #expect(before.allSatisfy { after[$0.key] == $0.value }, "a stored stroke changed")
        // The first view, then one a long way right and down (panned there with L and J): each
        // shows what the replica holds there.
        let export = try app.exportText().standardOutput
        var screen = try app.tmux.waitUntil(timeout: .seconds(30)) { rows in
            differences(Array(rows.dropLast()), export: export, origin: (0, 0)) == 0
        }
        for key in ["L", "L", "L", "L", "L", "L", "J", "J", "J"] { try app.tmux.sendKeys(key) }
        // A quarter screen a pan: 25 columns and 7 rows here.
        screen = try app.tmux.waitUntil(timeout: .seconds(30)) { rows in
            differences(Array(rows.dropLast()), export: export, origin: (150, 21)) == 0
        }
        #expect(screen.last?.contains("150") == true, "\(screen.joined(separator: "\n"))")
        #expect(try app.quit() == 0)
        // Quitting kept the bounds cache for the next open, the new stroke in it.
        let cache = try #require(try DrawingBoundsCache.read(inStore: store.path, drawingID: "drawing-1"))
        #expect(cache.entries.count == Self.strokeCount + 1)
    }
}

import StrokeKit
import StrokeKitTestSupport
import TerminalCanvas
import TestSupport
import Testing

/// A frame the layer cache brings up to date by redrawing the changed regions is cell-for-cell the frame
/// a full render gives, whatever happened since the last one: strokes added (pens, and markers
/// under them), mask erases and the cuts they make, stroke erases, undos and redos, pans, and
/// peers adding, changing, moving and removing strokes old and new.
@Suite struct IncrementalFrameTests {
    /// The layer of every group of the drawing, found without the spatial index: what the
    /// cache's layer must equal.
    static func referenceLayer(_ session: CanvasSession) -> RasterLayer {
        RasterLayer(
            session.document.groups, viewport: session.editor.viewport.visible, mode: session.editor.glyphMode
        )
    }

    static func randomCells(using random: inout SplitMix64) -> [(Int, Int)] {
        let x = Int.random(in: 0..<70, using: &random)
        let y = Int.random(in: 0..<28, using: &random)
        return (0..<Int.random(in: 2...5, using: &random)).map { _ in
            (
                max(0, x + Int.random(in: -12...12, using: &random)),
                max(0, y + Int.random(in: -5...5, using: &random))
            )
        }
    }

    /// A peer's group under `key`: a new path, a pen or a marker, now and then moved.
    static func peerGroup(_ key: StrokeKey, using random: inout SplitMix64) -> StrokeGroup {
        let cells = randomCells(using: &random)
        let transform =
            Bool.random(using: &random)
            ? StrokeTransform(
                dx: Double(Int.random(in: -8...8, using: &random)),
                dy: Double(Int.random(in: -4...4, using: &random)))
            : .identity
        let stroke = Fixtures.stroke(
            cells.map { (Double($0.0) + 0.5, Double($0.1) + 0.5) }, key: key,
            width: [0.25, 1, 2].randomElement(using: &random) ?? 1,
            colour: UInt8.random(in: 1...200, using: &random),
            tool: Int.random(in: 0..<3, using: &random) == 0 ? .marker : .pen, transform: transform)
        return Fixtures.group([stroke])
    }

    /// One random step: a gesture with a random tool, an undo or redo, a pan, or peers' changes.
    static func step(_ session: inout CanvasSession, peerTime: inout Int64, using random: inout SplitMix64) {
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<9:
            let tools: [ToolKind] = [.pen, .pen, .marker, .maskEraser, .maskEraser, .strokeEraser]
            session.run(.selectTool(tools.randomElement(using: &random) ?? .pen))
            if Bool.random(using: &random) { session.run(.growSize) }
            session.run(.selectColour(slot: Int.random(in: 1...5, using: &random)))
            session.mouseStroke(randomCells(using: &random).map { ($0.0 % 40, $0.1 % 12) })
        case 9, 10: session.run(.undo)
        case 11: session.run(.redo)
        case 12, 13:
            let directions: [CanvasViewport.PanDirection] = [.left, .right, .up, .down]
            session.run(.pan(directions.randomElement(using: &random) ?? .right))
        case 14: session.run(.viewHome)
        default:
            // Peers: a change to an old stroke (moved, redrawn, a marker now), a new stroke above
            // or below, a removal; now and then more at once than the journal keeps.
            var groups = session.document.groups
            let changes =
                Int.random(in: 0..<12, using: &random) == 0
                ? Drawing.journalLimit + 5 : Int.random(in: 1...3, using: &random)
            for _ in 0..<changes {
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where !groups.isEmpty:
                    let index = Int.random(in: 0..<groups.count, using: &random)
                    groups[index] = peerGroup(groups[index].key, using: &random)
                case 1 where !groups.isEmpty:
                    groups.remove(at: Int.random(in: 0..<groups.count, using: &random))
                case 2:
                    peerTime += 1
                    groups.append(peerGroup(CanvasFixtures.key(peerTime - 1_000_000), using: &random))
                default:
                    peerTime += 1
                    groups.append(peerGroup(CanvasFixtures.key(peerTime + 10_000_000), using: &random))
                }
            }
            session.receiveFromReplica(groups)
        }
    }

    @Test(arguments: [GlyphMode.block, .braille], Array(UInt64(1)...12))
    func incrementalFramesEqualFullRendersThroughRandomEdits(mode: GlyphMode, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var peerTime = CanvasSession.startMilliseconds
        var initial: [StrokeGroup] = []
        for index in 0..<30 {
            initial.append(
                Self.peerGroup(CanvasFixtures.key(peerTime - 2_000_000 + Int64(index)), using: &random))
        }
        var session = CanvasSession(width: 40, height: 13, groups: initial, mode: mode)
        let cache = CanvasLayerCache()
        for step in 0..<120 {
            Self.step(&session, peerTime: &peerTime, using: &random)
            let viewport = session.editor.viewport
            let layer = cache.layer(for: session.document, viewport: viewport.visible, mode: mode)
            #expect(layer == Self.referenceLayer(session), "seed \(seed) step \(step): layer")
            let cached = session.view.render(session.editor, drawing: session.document, cache: cache)
            #expect(cached == session.grid(), "seed \(seed) step \(step): frame")
        }
        // Most frames of these sequences catch up by redrawing tiles.
        #expect(cache.redraws > cache.misses, "seed \(seed)")
    }

    @Test func anEraseRedrawsOnlyTheBoundsOfWhatItChanged() {
        var session = CanvasSession(width: 80, height: 25, mode: .block)
        for row in stride(from: 1, to: 23, by: 3) { session.mouseStroke([(1, row), (78, row)]) }
        let cache = CanvasLayerCache()
        _ = cache.layer(for: session.document, viewport: session.editor.viewport.visible, mode: .block)
        session.run(.selectTool(.maskEraser))
        session.mouseStroke([(5, 4), (5, 5)])
        let layer = cache.layer(
            for: session.document, viewport: session.editor.viewport.visible, mode: .block)
        #expect(layer == Self.referenceLayer(session))
        #expect(cache.misses == 1 && cache.redraws == 1)
        // Only the stroke on row 4 is cut; it runs across the screen, and its bounds (the path's
        // box widened by half its width and a cell) are rows 3 to 5: 80 x 3 cells, not the
        // 80 x 8 of the index's tiles they reach into.
        #expect(cache.redrawnCells == 80 * 3)
    }

    @Test func aPanMovesTheLayerAndDrawsOnlyWhatCameIntoView() {
        let lines = stride(from: 0, to: 40, by: 2).map { row in
            CanvasFixtures.group(through: [(0, row), (90, row + 1)], at: 1_000_000 + Int64(row))
        }
        var session = CanvasSession(width: 48, height: 17, groups: lines, mode: .braille)
        let cache = CanvasLayerCache()
        _ = cache.layer(for: session.document, viewport: session.editor.viewport.visible, mode: .braille)
        session.run(.pan(.right))
        let viewport = session.editor.viewport.visible
        #expect(viewport.x == 12)
        let layer = cache.layer(for: session.document, viewport: viewport, mode: .braille)
        #expect(layer == Self.referenceLayer(session))
        #expect(cache.misses == 1 && cache.redraws == 1)
        // 12 new columns at the right edge, x 48..<60, of 16 canvas rows.
        #expect(cache.redrawnCells == 12 * 16)
    }
}

extension IncrementalFrameTests {
    @Test(arguments: [GlyphMode.block, .braille])
    func aResizeThatScrollsTheViewGivesTheFullRender(mode: GlyphMode) {
        let line = CanvasFixtures.group(through: [(2, 1), (12, 1)], at: 1_000_000)
        let view = CanvasView(mode: mode)
        let cache = CanvasLayerCache()
        let drawing = Drawing(groups: [line])
        var viewport = CanvasViewport(screenWidth: 80, screenHeight: 24)
        _ = view.render(drawing, viewport: viewport, cache: cache)
        viewport.resize(screenWidth: 20, screenHeight: 6, keeping: CanvasCell(x: 60, y: 20))
        #expect(
            view.render(drawing, viewport: viewport, cache: cache) == view.render(drawing, viewport: viewport)
        )
        viewport.resize(screenWidth: 80, screenHeight: 24, keeping: CanvasCell(x: 60, y: 20))
        #expect(
            view.render(drawing, viewport: viewport, cache: cache) == view.render(drawing, viewport: viewport)
        )
    }
}

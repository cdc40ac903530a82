import StrokeKit
import TerminalCanvas
import TestSupport
import Testing

/// Frames that only move cursors or strokes in progress reuse the drawing's raster layer, and
/// look exactly as frames rendered from scratch.
@Suite struct CanvasLayerCacheTests {
    let view = CanvasView(mode: .block)

    func drawing(_ count: Int) -> Drawing {
        Drawing(
            groups: (0..<count).map { index in
                CanvasFixtures.group(
                    through: [(index % 10, index % 5), (index % 10 + 3, index % 5 + 1)],
                    at: 1_000_000 + Int64(index),
                    colour: UInt8(index % 200))
            })
    }

    func peer(at x: Int, drawing cells: [(Int, Int)] = []) -> PeerPresence {
        PeerPresence(
            name: "ana", colour: 46, cursor: CanvasCell(x: x, y: 2),
            strokeInProgress: cells.map { CanvasCell(x: $0.0, y: $0.1) })
    }

    @Test func aFrameThatOnlyMovesAPeerReusesTheLayerAndLooksTheSame() {
        let cache = CanvasLayerCache()
        let document = drawing(30)
        let viewport = CanvasViewport(screenWidth: 16, screenHeight: 7)
        for (step, x) in [2, 5, 9, 12].enumerated() {
            let peers = [peer(at: x, drawing: (0...x).map { ($0, 3) })]
            let cached = view.render(
                document, viewport: viewport, peers: peers, cursor: CanvasCell(x: 1, y: 1), cache: cache)
            let fresh = view.render(
                document, viewport: viewport, peers: peers, cursor: CanvasCell(x: 1, y: 1))
            #expect(cached == fresh)
            #expect(cache.misses == 1)
            #expect(cache.hits == step)
        }
    }

    @Test func anEditOrAPanRedrawsTilesAndAnotherGlyphModeRasterisesTheDrawingAgain() {
        let cache = CanvasLayerCache()
        var document = drawing(10)
        var viewport = CanvasViewport(screenWidth: 16, screenHeight: 7)
        _ = view.render(document, viewport: viewport, cache: cache)
        #expect(cache.misses == 1)

        // An edit of a stored group (here: one drawn below the others) redraws its tiles.
        document.insert(CanvasFixtures.group(through: [(0, 0), (8, 0)], at: 500_000, colour: 9))
        let edited = view.render(document, viewport: viewport, cache: cache)
        #expect(cache.redraws == 1)
        #expect(edited == view.render(document, viewport: viewport))

        _ = viewport.pan(dx: 2, dy: 0)
        let panned = view.render(document, viewport: viewport, cache: cache)
        #expect(cache.redraws == 2)
        #expect(panned == view.render(document, viewport: viewport))

        // A jump to a view that shares no cell with the last one rasterises it whole.
        _ = viewport.pan(dx: 40, dy: 0)
        #expect(
            view.render(document, viewport: viewport, cache: cache)
                == view.render(document, viewport: viewport))
        #expect(cache.misses == 2)

        let braille = CanvasView(mode: .braille)
        #expect(
            braille.render(document, viewport: viewport, cache: cache)
                == braille.render(document, viewport: viewport))
        #expect(cache.misses == 3)
        #expect(cache.hits == 0)
        #expect(cache.extensions == 0)
    }

    @Test func newStrokesOnTopAreAddedToTheLayerInsteadOfStartingOver() {
        let cache = CanvasLayerCache()
        var document = drawing(10)
        let viewport = CanvasViewport(screenWidth: 16, screenHeight: 7)
        _ = view.render(document, viewport: viewport, cache: cache)
        document.insert(CanvasFixtures.group(through: [(0, 0), (8, 0)], at: 2_000_000, colour: 9))
        document.insert(CanvasFixtures.group(through: [(2, 4), (2, 6)], at: 2_000_001, colour: 10))
        #expect(
            view.render(document, viewport: viewport, cache: cache)
                == view.render(document, viewport: viewport))
        #expect(cache.misses == 1)
        #expect(cache.extensions == 1)
    }

    /// Whatever happens to the drawing between frames — strokes added above or below, changed,
    /// removed, several at once or many — a cached frame equals a frame rendered from scratch.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func cachedFramesEqualFreshFramesThroughRandomEdits(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let cache = CanvasLayerCache()
        var document = drawing(20)
        let viewport = CanvasViewport(screenWidth: 18, screenHeight: 8)
        var next: Int64 = 2_000_000
        for step in 0..<200 {
            for _ in 0..<Int(rng.next() % 3) {
                let x = Int(rng.next() % 15)
                let y = Int(rng.next() % 6)
                let colour = UInt8(rng.next() % 200)
                switch rng.next() % 10 {
                case 0..<6:
                    next += 1
                    document.insert(
                        CanvasFixtures.group(through: [(x, y), (x + 2, y + 1)], at: next, colour: colour))
                case 6, 7:
                    let below = Int64(1_000_000 + Int(rng.next() % 40))
                    document.insert(
                        CanvasFixtures.group(through: [(x, y), (x + 3, y)], at: below, colour: colour))
                default:
                    if let key = document.keys.randomElement(using: &rng) { document.removeGroup(for: key) }
                }
            }
            if rng.next() % 20 == 0 {
                for _ in 0..<(Drawing.journalLimit + 1) {
                    next += 1
                    document.insert(CanvasFixtures.group(through: [(1, 1), (2, 1)], at: next))
                }
            }
            #expect(
                view.render(document, viewport: viewport, cache: cache)
                    == view.render(document, viewport: viewport),
                "seed \(seed) step \(step)")
        }
        #expect(cache.extensions > 0 && cache.misses > 1)
    }

    /// A cache follows one drawing by its revision: every change moves it on, an edit that
    /// changes nothing keeps it (and the cached layer).
    @Test func theRevisionMovesOnWithEveryChangeAndOnlyThen() {
        let view = CanvasView(mode: .block)
        let viewport = CanvasViewport(screenWidth: 20, screenHeight: 8)
        let cache = CanvasLayerCache()
        var document = drawing(3)
        let original = document.revision
        _ = view.render(document, viewport: viewport, cache: cache)
        document.insert(CanvasFixtures.group(through: [(0, 0), (1, 0)], at: 3_000_000))
        #expect(document.revision != original)
        let before = document.revision
        document.insert(document.groups[0])
        #expect(document.revision == before)
        _ = view.render(document, viewport: viewport, cache: cache)
        let misses = cache.misses
        _ = view.render(document, viewport: viewport, cache: cache)
        #expect(cache.misses == misses && cache.hits > 0)
    }
}

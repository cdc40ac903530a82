import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

/// A layer that strokes are added to later must show what rendering everything at once shows:
/// the canvas keeps the drawing's layer and adds the strokes being drawn on top of it per frame.
@Suite struct RasterLayerTests {
    /// Strokes in a small area, pens and markers, so they overlap and share cells.
    static func crowdedGroups(count: Int, seed: UInt64) -> [StrokeGroup] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { index in
            let points = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                (Double.random(in: -2...22, using: &random), Double.random(in: -2...10, using: &random))
            }
            return Fixtures.group([
                Fixtures.stroke(
                    points, key: Fixtures.key(1_774_455_614_000 + Int64(index)),
                    width: [0.25, 0.5, 1, 2].randomElement(using: &random) ?? 0.25,
                    colour: UInt8.random(in: 0...255, using: &random),
                    tool: Int.random(in: 0..<4, using: &random) == 0 ? .marker : .pen)
            ])
        }
    }

    @Test(arguments: [GlyphMode.block, .braille, .ascii], [UInt64(1), 2, 3])
    func addingStrokesOnTopEqualsRenderingThemTogether(mode: GlyphMode, seed: UInt64) {
        let groups = Self.crowdedGroups(count: 40, seed: seed)
        let viewport = Viewport(x: 0, y: 0, width: 20, height: 8)
        var layer = RasterLayer(Array(groups.prefix(30)), viewport: viewport, mode: mode)
        let drawingOnly = layer.grid
        layer.add(Array(groups.suffix(10)))
        #expect(layer.grid == Raster.render(groups, viewport: viewport, mode: mode))
        #expect(layer.grid != drawingOnly)
    }

    @Test func anEmptyViewportHasNoCells() {
        let layer = RasterLayer(
            Self.crowdedGroups(count: 3, seed: 9), viewport: Viewport(x: 0, y: 0, width: 0, height: 5),
            mode: .block)
        #expect(layer.grid.width == 0)
    }
}

/// A fresh layer and a redrawn region are drawn topmost stroke first, skipping strokes under
/// cells that are full already; the cells must be the ones drawing every stroke in key order
/// gives (`add` on an empty layer), in drawings dense enough that most strokes are skipped.
@Suite struct RasterLayerTopFirstTests {
    /// Many strokes over a small area: pens and markers, thin and wide, some moved, some masked.
    static func denseGroups(count: Int, using random: inout SplitMix64) -> [StrokeGroup] {
        (0..<count).map { index in
            let points = (0..<Int.random(in: 1...8, using: &random)).map { _ in
                (Double.random(in: -3...27, using: &random), Double.random(in: -3...13, using: &random))
            }
            let mask =
                Int.random(in: 0..<5, using: &random) == 0
                ? Fixtures.mask(radius: 1, [points[0], (points[0].0 + 2, points[0].1 + 1)]) : .none
            let transform =
                Int.random(in: 0..<4, using: &random) == 0
                ? StrokeTransform(
                    dx: Double.random(in: -2...2, using: &random),
                    dy: Double.random(in: -1...1, using: &random))
                : .identity
            return Fixtures.group([
                Fixtures.stroke(
                    points, key: Fixtures.key(1_774_455_614_000 + Int64(index)),
                    width: [0.25, 0.5, 1, 2, 3].randomElement(using: &random) ?? 0.25,
                    colour: UInt8.random(in: 1...255, using: &random),
                    tool: Int.random(in: 0..<4, using: &random) == 0 ? .marker : .pen, transform: transform,
                    mask: mask)
            ])
        }
    }

    static func inKeyOrder(_ groups: [StrokeGroup], viewport: Viewport, mode: GlyphMode) -> RasterLayer {
        var layer = RasterLayer([], viewport: viewport, mode: mode)
        layer.add(groups)
        return layer
    }

    @Test(arguments: [GlyphMode.block, .braille, .ascii], Array(UInt64(1)...8))
    func aFreshLayerIsTheLayerOfEveryStrokeInKeyOrder(mode: GlyphMode, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let viewport = Viewport(x: 0, y: 0, width: 24, height: 10)
        for count in [1, 10, 60, 400] {
            let groups = Self.denseGroups(count: count, using: &random)
            #expect(
                RasterLayer(groups, viewport: viewport, mode: mode)
                    == Self.inKeyOrder(groups, viewport: viewport, mode: mode),
                "seed \(seed), \(count) strokes")
        }
    }

    @Test(arguments: [GlyphMode.block, .braille], Array(UInt64(1)...8))
    func aRedrawnRegionIsTheLayerOfEveryStrokeInKeyOrder(mode: GlyphMode, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let viewport = Viewport(x: 2, y: 1, width: 22, height: 9)
        let groups = Self.denseGroups(count: 300, using: &random)
        let before = Self.inKeyOrder(Array(groups.prefix(100)), viewport: viewport, mode: mode).grid
        let after = Self.inKeyOrder(groups, viewport: viewport, mode: mode).grid
        for _ in 0..<6 {
            let region = CellRect(
                x: Int.random(in: 0..<22, using: &random), y: Int.random(in: 0..<9, using: &random),
                width: Int.random(in: 1...12, using: &random), height: Int.random(in: 1...6, using: &random))
            var layer = RasterLayer(Array(groups.prefix(100)), viewport: viewport, mode: mode)
            layer.redraw(region, from: groups)
            let grid = layer.grid
            for y in 0..<viewport.height {
                for x in 0..<viewport.width {
                    let inside = region.intersects(
                        CellRect(x: viewport.x + x, y: viewport.y + y, width: 1, height: 1))
                    let index = y * viewport.width + x
                    #expect(
                        grid.cells[index] == (inside ? after : before).cells[index],
                        "seed \(seed) region \(region) cell \(x),\(y)")
                }
            }
        }
    }
}

/// Text among the pens: a glyph clears the pen samples below it in its cell and a later pen
/// clears the glyph, so a layer holding text must still end as drawing every stroke in key order.
@Suite struct RasterLayerTextAmongPensTests {
    static let words = ["a", "hi", "Zq", "mid", "x\u{8A9E}y", "ok\nno"]

    /// Dense pens and markers with a text stroke in every fourth group, at whole-cell places.
    static func mixedGroups(count: Int, using random: inout SplitMix64) -> [StrokeGroup] {
        let pens = RasterLayerTopFirstTests.denseGroups(count: count, using: &random)
        return pens.enumerated().map { index, group in
            guard index % 4 == 1 else { return group }
            let word = words.randomElement(using: &random) ?? "a"
            let cell = (
                x: Int.random(in: -2...24, using: &random), y: Int.random(in: -1...10, using: &random)
            )
            let transform =
                Bool.random(using: &random)
                ? .identity : StrokeTransform(dx: 1, dy: Double(Int.random(in: -1...1, using: &random)))
            return Fixtures.group([
                Fixtures.text(
                    word, at: cell, key: group.key, colour: UInt8.random(in: 1...255, using: &random),
                    transform: transform)
            ])
        }
    }

    /// How many text first cells show their character, and how many are covered by later ink.
    static func shownAndCovered(_ groups: [StrokeGroup], in grid: CellGrid, viewport: Viewport) -> (Int, Int)
    {
        var shown = 0
        var covered = 0
        for stroke in groups.flatMap(\.pieces) {
            guard let text = stroke.text, let first = text.lines.first?.unicodeScalars.first else { continue }
            let x = Int(stroke.origin.x + stroke.transform.dx) - viewport.x
            let y = Int(stroke.origin.y + stroke.transform.dy) - viewport.y
            guard x >= 0, x < viewport.width, y >= 0, y < viewport.height else { continue }
            if grid.cells[y * viewport.width + x].glyph == first { shown += 1 } else { covered += 1 }
        }
        return (shown, covered)
    }

    @Test(arguments: [GlyphMode.block, .braille], Array(UInt64(1)...6))
    func aLayerOfTextAndPensIsTheLayerOfEveryStrokeInKeyOrder(mode: GlyphMode, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let viewport = Viewport(x: 0, y: 0, width: 24, height: 10)
        var shown = 0
        var covered = 0
        for count in [6, 20, 60, 200] {
            let groups = Self.mixedGroups(count: count, using: &random)
            let expected = RasterLayerTopFirstTests.inKeyOrder(groups, viewport: viewport, mode: mode)
            let layer = RasterLayer(groups, viewport: viewport, mode: mode)
            #expect(layer == expected, "seed \(seed), \(count) strokes")
            #expect(layer.grid == expected.grid, "seed \(seed), \(count) strokes")
            let counts = Self.shownAndCovered(groups, in: expected.grid, viewport: viewport)
            shown += counts.0
            covered += counts.1
        }
        // Both rules are exercised: some text shows over the pens below it, some is covered.
        #expect(shown > 0, "seed \(seed)")
        #expect(covered > 0, "seed \(seed)")
    }

    @Test(arguments: [GlyphMode.block, .braille], Array(UInt64(1)...6))
    func aRedrawnRegionWithTextIsTheLayerOfEveryStrokeInKeyOrder(mode: GlyphMode, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let viewport = Viewport(x: 1, y: 0, width: 22, height: 9)
        let groups = Self.mixedGroups(count: 120, using: &random)
        let before = RasterLayerTopFirstTests.inKeyOrder(
            Array(groups.prefix(40)), viewport: viewport, mode: mode)
        let after = RasterLayerTopFirstTests.inKeyOrder(groups, viewport: viewport, mode: mode).grid
        for _ in 0..<6 {
            let region = CellRect(
                x: Int.random(in: 0..<22, using: &random), y: Int.random(in: 0..<9, using: &random),
                width: Int.random(in: 1...12, using: &random), height: Int.random(in: 1...6, using: &random))
            var layer = before
            // As the canvas does it: only the groups the drawing's index lists in the region.
            layer.redraw(region, from: Drawing(groups: groups).groups(in: region))
            let grid = layer.grid
            for y in 0..<viewport.height {
                for x in 0..<viewport.width {
                    let inside = region.intersects(
                        CellRect(x: viewport.x + x, y: viewport.y + y, width: 1, height: 1))
                    let index = y * viewport.width + x
                    guard inside else { continue }
                    #expect(
                        grid.cells[index] == after.cells[index],
                        "seed \(seed) region \(region) cell \(x),\(y)")
                }
            }
        }
    }
}

/// A layer drawn from a drawing's spatial index (the groups under the viewport, their bounds and
/// tools read from the index, topmost first) must be the layer of every group in key order,
/// after edits that move groups' ranks (adds below and above, changes, removals, complete
/// erasures), in every glyph mode, with text among the pens now and then.
@Suite struct RasterLayerFromDrawingTests {
    @Test(arguments: [GlyphMode.block, .braille, .ascii], Array(UInt64(1)...6))
    func aLayerOfTheDrawingIsTheLayerOfEveryGroupInKeyOrder(mode: GlyphMode, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let pool = RasterLayerTopFirstTests.denseGroups(count: 400, using: &random)
        let texts = RasterLayerTextAmongPensTests.mixedGroups(count: 40, using: &random)
        var drawing = Drawing(groups: Array(pool.prefix(150)))
        let viewport = Viewport(x: 1, y: 0, width: 23, height: 10)
        for round in 0..<8 {
            for _ in 0..<40 {
                let group = pool.randomElement(using: &random) ?? pool[0]
                switch Int.random(in: 0..<6, using: &random) {
                case 0: drawing.removeGroup(for: group.key)
                case 1:
                    // Hidden whole by a sweep: held by the drawing, drawn nowhere.
                    let sweep = Fixtures.mask(radius: 40, [(10, 5), (11, 5)])
                    drawing.insert(group.settingSweep(sweep, for: Fixtures.key(9_000_000 + Int64(round))))
                default: drawing.insert(group)
                }
            }
            if seed.isMultiple(of: 2), let text = texts.randomElement(using: &random) {
                drawing.insert(text)
            }
            #expect(
                RasterLayer(drawing, viewport: viewport, mode: mode)
                    == RasterLayerTopFirstTests.inKeyOrder(drawing.groups, viewport: viewport, mode: mode),
                "seed \(seed) round \(round)")
            var redrawn = RasterLayer(Drawing(), viewport: viewport, mode: mode)
            redrawn.redraw(CellRect(x: 4, y: 2, width: 12, height: 5), from: drawing)
            var expected = RasterLayer([], viewport: viewport, mode: mode)
            expected.redraw(CellRect(x: 4, y: 2, width: 12, height: 5), from: drawing.groups)
            #expect(redrawn == expected, "seed \(seed) round \(round), a redrawn region")
        }
    }
}

/// The topmost-first walk keeps masks of the samples and cells still open to a pen and to a
/// marker (`SettlingCells`), and passes over what they say is settled when it asks whether a
/// group, a segment or a row can still change a cell. Over a wide viewport whose origin is not on
/// any grid, dense enough that most cells settle early, a fresh layer and redrawn regions (cut
/// anywhere) must still be what drawing every group in key order gives.
@Suite struct RasterLayerSettledBlockTests {
    @Test(arguments: [GlyphMode.block, .braille], Array(UInt64(1)...6))
    func passingOverSettledBlocksChangesNoCell(mode: GlyphMode, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let groups = (0..<3).flatMap { _ in RasterLayerTopFirstTests.denseGroups(count: 300, using: &random) }
            .enumerated().map { index, group in
                // Spread over 3 x 1 copies of the dense area, under distinct keys.
                let shift = Double(index / 300) * 25
                let pieces = group.pieces.map { piece in
                    Fixtures.stroke(
                        piece.path.map { ($0.point.x + shift, $0.point.y) },
                        key: Fixtures.key(1_774_455_700_000 + Int64(index)),
                        width: piece.ink.width, colour: piece.ink.colour, tool: piece.ink.tool,
                        transform: piece.transform, mask: piece.mask)
                }
                return Fixtures.group(pieces)
            }
        let drawing = Drawing(groups: groups)
        let viewport = Viewport(x: -3, y: -2, width: 77, height: 17)
        let expected = RasterLayerTopFirstTests.inKeyOrder(drawing.groups, viewport: viewport, mode: mode)
        #expect(RasterLayer(drawing, viewport: viewport, mode: mode) == expected, "seed \(seed)")
        for _ in 0..<6 {
            let region = CellRect(
                x: Int.random(in: -3..<70, using: &random), y: Int.random(in: -2..<14, using: &random),
                width: Int.random(in: 1...30, using: &random), height: Int.random(in: 1...9, using: &random))
            var layer = expected
            layer.redraw(region, from: drawing)
            #expect(layer == expected, "seed \(seed) region \(region)")
        }
    }
}

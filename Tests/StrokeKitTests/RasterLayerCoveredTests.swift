import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

/// The topmost-first walk keeps masks of what is still open (per sample row the samples no pen
/// above has inked and the cells no marker above has coloured, per cell row the cells not yet
/// full and those without a marker) and skips a group, a segment, a row's run of candidates or a
/// single candidate when the masks say nothing there is open. Drawings here are built so those
/// skips decide most of the frame: groups stacked under a cover of wide strokes, a cover with a
/// hole of one sample (a braille dot, a half block) or one cell, strokes along the 64-sample
/// edges of the masks' words, and viewports whose origin is off every grid. Each layer, fresh or
/// with regions redrawn, must be the layer of every group drawn in key order.
@Suite struct RasterLayerCoveredTests {
    /// A viewport wider than 64 samples in both lattices, off the origin, so rows of both masks
    /// span several words and the words' edges fall inside it.
    static let viewport = Viewport(x: -5, y: -3, width: 75, height: 13)

    /// Wide horizontal pens over every row of the viewport (and a cell beyond), each hiding the
    /// samples whose centres lie within `hole`'s radius of its point: what they leave open is
    /// exactly that hole.
    static func cover(
        keys: ClosedRange<Int64>, colour: UInt8, tool: InkTool = .pen,
        hole: (x: Double, y: Double, radius: Double)?
    ) -> [StrokeGroup] {
        let v = viewport
        var groups: [StrokeGroup] = []
        var key = keys.lowerBound
        for y in stride(from: Double(v.y) - 0.5, through: Double(v.maxY) + 0.5, by: 1) {
            let mask = hole.map { Fixtures.mask(radius: $0.radius, [($0.x, $0.y)]) } ?? .none
            groups.append(
                Fixtures.group([
                    Fixtures.stroke(
                        [(Double(v.x) - 2, y), (Double(v.maxX) + 2, y)], key: Fixtures.key(key), width: 3,
                        colour: colour, tool: tool, mask: mask)
                ]))
            key += 1
            precondition(key <= keys.upperBound + 1)
        }
        return groups
    }

    /// `count` random strokes over the viewport, pens and markers, thin and wide, some moved and
    /// some masked, under keys from `firstKey`.
    static func scattered(count: Int, firstKey: Int64, using random: inout SplitMix64) -> [StrokeGroup] {
        let v = viewport
        return (0..<count).map { index in
            let start = (
                Double.random(in: Double(v.x - 2)...Double(v.maxX + 2), using: &random),
                Double.random(in: Double(v.y - 2)...Double(v.maxY + 2), using: &random)
            )
            var points = [start]
            for _ in 0..<Int.random(in: 0...7, using: &random) {
                let last = points[points.count - 1]
                points.append(
                    (
                        last.0 + Double.random(in: -2...2, using: &random),
                        last.1 + Double.random(in: -1...1, using: &random)
                    ))
            }
            let mask =
                Int.random(in: 0..<6, using: &random) == 0
                ? Fixtures.mask(radius: 0.75, [points[0], (points[0].0 + 1, points[0].1)]) : .none
            return Fixtures.group([
                Fixtures.stroke(
                    points, key: Fixtures.key(firstKey + Int64(index)),
                    width: [0.0625, 0.25, 0.5, 1, 2].randomElement(using: &random) ?? 0.25,
                    colour: UInt8.random(in: 1...255, using: &random),
                    tool: Int.random(in: 0..<4, using: &random) == 0 ? .marker : .pen,
                    transform: Int.random(in: 0..<5, using: &random) == 0
                        ? StrokeTransform(dx: 0.25, dy: -0.125) : .identity,
                    mask: mask)
            ])
        }
    }

    /// A sample centre of `mode`'s lattice in a random cell of the viewport.
    static func sampleCentre(_ mode: GlyphMode, using random: inout SplitMix64) -> (x: Double, y: Double) {
        let (columns, rows) = mode == .braille ? (2, 4) : (1, 2)
        let cell = (
            x: Int.random(in: viewport.x..<viewport.maxX, using: &random),
            y: Int.random(in: viewport.y..<viewport.maxY, using: &random)
        )
        let column = Int.random(in: 0..<columns, using: &random)
        let row = Int.random(in: 0..<rows, using: &random)
        return (
            Double(cell.x) + (Double(column) + 0.5) / Double(columns),
            Double(cell.y) + (Double(row) + 0.5) / Double(rows)
        )
    }

    static func expectLayers(
        _ groups: [StrokeGroup], mode: GlyphMode, _ comment: Comment, using random: inout SplitMix64
    ) {
        let drawing = Drawing(groups: groups)
        let expected = RasterLayerTopFirstTests.inKeyOrder(drawing.groups, viewport: viewport, mode: mode)
        #expect(RasterLayer(drawing, viewport: viewport, mode: mode) == expected, comment)
        #expect(RasterLayer(groups, viewport: viewport, mode: mode) == expected, comment)
        for _ in 0..<4 {
            let region = CellRect(
                x: Int.random(in: (viewport.x - 2)..<viewport.maxX, using: &random),
                y: Int.random(in: (viewport.y - 1)..<viewport.maxY, using: &random),
                width: Int.random(in: 1...70, using: &random), height: Int.random(in: 1...12, using: &random))
            var layer = expected
            layer.redraw(region, from: drawing)
            #expect(layer == expected, "\(comment) region \(region)")
        }
    }

    @Test(arguments: [GlyphMode.block, .braille, .ascii], Array(UInt64(1)...6))
    func groupsStackedUnderACoverChangeNoCell(mode: GlyphMode, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        // Many groups, then a cover of pens and one of markers over all of them, then a few more
        // on top: most groups lie wholly under settled cells and samples.
        let below = Self.scattered(count: 500, firstKey: 1_774_455_000_000, using: &random)
        let pens = Self.cover(keys: 1_774_456_000_000...1_774_456_000_100, colour: 7, hole: nil)
        let markers = Self.cover(
            keys: 1_774_456_100_000...1_774_456_100_100, colour: 9, tool: .marker, hole: nil)
        let above = Self.scattered(count: 40, firstKey: 1_774_457_000_000, using: &random)
        Self.expectLayers(below + pens + markers + above, mode: mode, "seed \(seed)", using: &random)
        // Without the cover on top of them, and with only the pens over them.
        Self.expectLayers(below + above, mode: mode, "seed \(seed), no cover", using: &random)
        Self.expectLayers(below + pens + above, mode: mode, "seed \(seed), pens only", using: &random)
    }

    /// A cover of pens that leaves one sample open (a mask on every covering stroke hides that
    /// sample's centre and no other): a pen dot below it, and groups below that, show in that
    /// sample alone.
    @Test(arguments: [GlyphMode.block, .braille], Array(UInt64(1)...8))
    func aGroupSeenThroughOneSampleInksOnlyThatSample(mode: GlyphMode, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let hole = Self.sampleCentre(mode, using: &random)
        let below = Self.scattered(count: 200, firstKey: 1_774_455_000_000, using: &random)
        let dot = Fixtures.group([
            Fixtures.stroke([(hole.x, hole.y)], key: Fixtures.key(1_774_455_900_000), colour: 3)
        ])
        let pens = Self.cover(
            keys: 1_774_456_000_000...1_774_456_000_100, colour: 7, hole: (hole.x, hole.y, 0.1))
        Self.expectLayers(below + [dot] + pens, mode: mode, "seed \(seed) hole \(hole)", using: &random)
        // Only the hole's cell differs from the cover alone: its one sample is the dot's.
        let covered = Raster.render(pens, viewport: Self.viewport, mode: mode)
        let seen = RasterLayer(Drawing(groups: below + [dot] + pens), viewport: Self.viewport, mode: mode)
            .grid
        let differing = zip(covered.cells, seen.cells).filter { $0.0.glyph != $0.1.glyph }.count
        #expect(differing == 1, "seed \(seed) hole \(hole)")
    }

    /// A cover of markers that leaves one cell without a marker, with pens over it: the markers
    /// below show in that cell alone, whatever else lies under the cover.
    @Test(arguments: [GlyphMode.block, .braille], Array(UInt64(1)...8))
    func aMarkerSeenThroughOneCellColoursOnlyThatCell(mode: GlyphMode, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let cell = (
            x: Int.random(in: Self.viewport.x..<Self.viewport.maxX, using: &random),
            y: Int.random(in: Self.viewport.y..<Self.viewport.maxY, using: &random)
        )
        let centre = (Double(cell.x) + 0.5, Double(cell.y) + 0.5)
        let below = Self.scattered(count: 200, firstKey: 1_774_455_000_000, using: &random)
        let marker = Fixtures.group([
            Fixtures.stroke([centre], key: Fixtures.key(1_774_455_900_000), colour: 4, tool: .marker)
        ])
        let markers = Self.cover(
            keys: 1_774_456_000_000...1_774_456_000_100, colour: 9, tool: .marker,
            hole: (centre.0, centre.1, 0.55))
        let pens = Self.cover(keys: 1_774_456_100_000...1_774_456_100_100, colour: 7, hole: nil)
        Self.expectLayers(
            below + [marker] + markers + pens, mode: mode, "seed \(seed) cell \(cell)", using: &random)
        let covered = Raster.render(markers + pens, viewport: Self.viewport, mode: mode)
        let seen = RasterLayer(
            Drawing(groups: below + [marker] + markers + pens), viewport: Self.viewport, mode: mode
        ).grid
        let differing = zip(covered.cells, seen.cells).filter { $0.0 != $0.1 }.count
        #expect(differing == 1, "seed \(seed) cell \(cell)")
    }

    /// Strokes along and across the edges of the masks' 64-bit words (sample column 64 from the
    /// viewport's left, and cell 64 for the cell masks) and along sample and cell edges, under a
    /// cover with holes there.
    @Test(arguments: [GlyphMode.block, .braille], Array(UInt64(1)...6))
    func strokesOnTheMasksWordEdgesChangeNoCell(mode: GlyphMode, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let perCell = mode == .braille ? 2.0 : 1.0
        // Canvas x of the word edges in this lattice: 64 samples, and 64 cells, in from the left.
        let edges = [Double(Self.viewport.x) + 64 / perCell, Double(Self.viewport.x) + 64]
        var groups: [StrokeGroup] = []
        for index in 0..<120 {
            let edge = edges.randomElement(using: &random) ?? edges[0]
            let x = edge + Double(Int.random(in: -4...4, using: &random)) / 8
            let y =
                Double(Int.random(in: (Self.viewport.y * 4)...(Self.viewport.maxY * 4), using: &random)) / 4
            let end = (
                x + Double(Int.random(in: -3...3, using: &random)) / 4,
                y + Double(Int.random(in: -6...6, using: &random)) / 4
            )
            groups.append(
                Fixtures.group([
                    Fixtures.stroke(
                        [(x, y), end], key: Fixtures.key(1_774_455_000_000 + Int64(index)),
                        width: [0.0625, 0.25, 0.5, 1].randomElement(using: &random) ?? 0.25,
                        colour: UInt8.random(in: 1...255, using: &random),
                        tool: Int.random(in: 0..<4, using: &random) == 0 ? .marker : .pen)
                ]))
        }
        let hole = (x: edges[0] - 0.5 / perCell, y: Double(Self.viewport.y) + 3.125, radius: 1.5)
        let pens = Self.cover(keys: 1_774_456_000_000...1_774_456_000_100, colour: 7, hole: hole)
        Self.expectLayers(groups, mode: mode, "seed \(seed)", using: &random)
        Self.expectLayers(groups + pens, mode: mode, "seed \(seed), covered", using: &random)
    }
}

import StrokeKitTestSupport
import TestSupport
import Testing

@testable import StrokeKit

/// The sampler looks at a few candidate samples per row of each segment; the samples it inks are
/// the ones the two rules give when every sample of the stroke's bounds is tried (seeded random
/// strokes: thin and wide, long and short segments, single points, moved; both lattices).
@Suite struct InkSamplerCandidateTests {
    /// The samples `sampler` inks of `stroke`, as its walk visits them.
    static func visited(by sampler: InkSampler, _ stroke: Stroke) -> Set<[Int]> {
        var visited: Set<[Int]> = []
        sampler.forEachVisibleSample(of: stroke) { column, row in
            visited.insert([column, row])
            return true
        }
        return visited
    }

    /// Every sample of the stroke's bounds that the rules ink, tried one by one.
    static func inkedByTryingEverySample(_ stroke: Stroke, lattice: SampleLattice) -> Set<[Int]> {
        let bounds = SpatialIndex.bounds(of: stroke)
        let (columns, rows) = lattice.samples(in: bounds)
        let spine = stroke.path.map {
            Vector2($0.point.x + stroke.transform.dx, $0.point.y + stroke.transform.dy)
        }
        let segments = PlanarGeometry.segments(of: spine)
        let halfWidth = stroke.ink.width / 2
        let sw = lattice.sampleWidth
        let sh = lattice.sampleHeight
        var inked: Set<[Int]> = []
        for row in rows {
            for column in columns {
                let left = Double(column) * sw
                let top = Double(row) * sh
                let centre = Vector2(left + sw / 2, top + sh / 2)
                let touched = segments.contains { a, b in
                    PlanarGeometry.distanceSquared(from: centre, toSegment: a, b) < halfWidth * halfWidth
                        || PlanarGeometry.segment(
                            a, b, touchesRectMinX: left, minY: top, maxX: left + sw - 1e-9,
                            maxY: top + sh - 1e-9)
                }
                if touched { inked.insert([column, row]) }
            }
        }
        return inked
    }

    static func randomStroke(using random: inout SplitMix64) -> Stroke {
        let x = Double(Int.random(in: -80...80, using: &random)) / 16
        let y = Double(Int.random(in: -40...40, using: &random)) / 16
        var points: [(Double, Double)] = [(x, y)]
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            let steps: [Double] = [0.0625, 0.5, 1, 3, 9]
            let step = steps.randomElement(using: &random) ?? 1
            let last = points[points.count - 1]
            let dx = Double(Int.random(in: -16...16, using: &random)) / 16 * step
            let dy = Double(Int.random(in: -16...16, using: &random)) / 16 * step
            points.append((last.0 + dx, last.1 + dy))
        }
        let transform =
            Bool.random(using: &random)
            ? StrokeTransform(
                dx: Double.random(in: -3...3, using: &random), dy: Double.random(in: -2...2, using: &random))
            : .identity
        return Fixtures.stroke(
            points, width: [0.0625, 0.25, 0.5, 1, 1.5, 2, 3.25].randomElement(using: &random) ?? 0.25,
            transform: transform)
    }

    @Test(arguments: Array(UInt64(1)...24))
    func theSamplesInkedAreTheOnesEverySampleTriedGives(seed: UInt64) {
        Self.expectSamplerAgreesWithTryingEverySample(seed: seed, strokes: 40, made: Self.randomStroke)
    }

    /// For `strokes` strokes of `made` per lattice (one random stream from `seed`): the samples
    /// the sampler visits are those that trying every sample gives.
    static func expectSamplerAgreesWithTryingEverySample(
        seed: UInt64, strokes: Int, made: (inout SplitMix64) -> Stroke
    ) {
        var random = SplitMix64(seed: seed)
        for lattice in [SampleLattice.halfBlock, .braille] {
            let sampler = InkSampler(lattice: lattice)
            for index in 0..<strokes {
                let stroke = made(&random)
                #expect(
                    visited(by: sampler, stroke) == inkedByTryingEverySample(stroke, lattice: lattice),
                    "seed \(seed) stroke \(index) \(lattice)")
            }
        }
    }

    /// A visitor for which the samples of `settled` (and of `settledCells`) are settled, as the
    /// raster's topmost-first walk tells the sampler through its masks.
    struct SettledSamples: SampleVisitor {
        let lattice: SampleLattice
        let settled: Set<[Int]>
        let settledCells: Set<[Int]>
        var visited: Set<[Int]> = []

        func isSettled(_ column: Int, _ row: Int) -> Bool {
            let cell = lattice.cell(ofColumn: column, row: row)
            return settled.contains([column, row]) || settledCells.contains([cell.x, cell.y])
        }

        func openSamples(row: Int, from first: Int, through last: Int) -> UInt64 {
            #expect(last >= first && last - first < 64)
            var open: UInt64 = 0
            for column in first...last where !isSettled(column, row) { open |= 1 << UInt64(column - first) }
            return open
        }

        func hasOpenSample(left: Int, top: Int, right: Int, bottom: Int) -> Bool {
            (top...bottom).contains { row in (left...right).contains { !isSettled($0, row) } }
        }

        mutating func visit(column: Int, row: Int) -> Bool {
            #expect(!isSettled(column, row), "a settled sample was visited")
            visited.insert([column, row])
            return true
        }
    }

    /// With some samples and some cells settled (as the raster's topmost-first walk tells the
    /// sampler), every sample the rules ink that is not settled is still visited, and nothing
    /// else is: a segment or a row is passed over only when every sample it can ink is settled.
    @Test(arguments: Array(UInt64(1)...24))
    func settledSamplesHideOnlyThemselves(seed: UInt64) {
        Self.forRandomStrokes(seed: seed) { sampler, lattice, stroke, inked, random, label in
            // Most of what the stroke inks is settled, so whole segments and rows are passed
            // over: single samples (a braille dot) and whole cells.
            let share = [0.5, 0.9, 1.0].randomElement(using: &random) ?? 0.9
            var settled: Set<[Int]> = []
            var settledCells: Set<[Int]> = []
            for sample in inked where Double.random(in: 0..<1, using: &random) < share {
                if Bool.random(using: &random) {
                    settled.insert(sample)
                } else {
                    let cell = lattice.cell(ofColumn: sample[0], row: sample[1])
                    settledCells.insert([cell.x, cell.y])
                }
            }
            var visitor = SettledSamples(lattice: lattice, settled: settled, settledCells: settledCells)
            sampler.forEachVisibleSample(of: stroke, columns: nil, rows: nil, &visitor)
            #expect(
                visitor.visited == inked.filter { !visitor.isSettled($0[0], $0[1]) },
                "\(label) share \(share)")
        }
    }

    /// `body` for 40 random strokes per lattice (one random stream from `seed`), with the
    /// samples each inks when every sample of its bounds is tried, and a label for failures.
    static func forRandomStrokes(
        seed: UInt64,
        _ body: (InkSampler, SampleLattice, Stroke, Set<[Int]>, inout SplitMix64, String) -> Void
    ) {
        var random = SplitMix64(seed: seed)
        for lattice in [SampleLattice.halfBlock, .braille] {
            let sampler = InkSampler(lattice: lattice)
            for index in 0..<40 {
                let stroke = randomStroke(using: &random)
                let inked = inkedByTryingEverySample(stroke, lattice: lattice)
                body(sampler, lattice, stroke, inked, &random, "seed \(seed) stroke \(index) \(lattice)")
            }
        }
    }

    /// A visitor for which only the samples of `open` are open: what is left under a drawing's
    /// many strokes, where a row of a segment keeps one or two open candidates, or none.
    struct OpenSamplesOnly: SampleVisitor {
        let open: Set<[Int]>
        var visited: Set<[Int]> = []

        func openSamples(row: Int, from first: Int, through last: Int) -> UInt64 {
            #expect(last >= first && last - first < 64)
            var bits: UInt64 = 0
            for column in first...last where open.contains([column, row]) {
                bits |= 1 << UInt64(column - first)
            }
            return bits
        }

        func hasOpenSample(left: Int, top: Int, right: Int, bottom: Int) -> Bool {
            (top...bottom).contains { row in (left...right).contains { open.contains([$0, row]) } }
        }

        mutating func visit(column: Int, row: Int) -> Bool {
            #expect(open.contains([column, row]), "a settled sample was visited")
            visited.insert([column, row])
            return true
        }
    }

    /// With a few samples open, scattered over the stroke's bounds whether it inks them or not
    /// (so a row's open candidates are often one or two, which are tried without the row's part
    /// of the segment, and sometimes more, which are not), every open sample the rules ink is
    /// visited and nothing else is.
    @Test(arguments: Array(UInt64(1)...24))
    func scatteredOpenSamplesAreTheOnlyOnesVisited(seed: UInt64) {
        Self.forRandomStrokes(seed: seed) { sampler, lattice, stroke, inked, random, label in
            let (columns, rows) = lattice.samples(in: SpatialIndex.bounds(of: stroke))
            let share = [0.02, 0.1, 0.3, 0.6].randomElement(using: &random) ?? 0.1
            var open: Set<[Int]> = []
            for row in rows {
                for column in columns where Double.random(in: 0..<1, using: &random) < share {
                    open.insert([column, row])
                }
            }
            var visitor = OpenSamplesOnly(open: open)
            sampler.forEachVisibleSample(of: stroke, columns: nil, rows: nil, &visitor)
            #expect(visitor.visited == inked.intersection(open), "\(label) share \(share)")
        }
    }

    /// The sampler's floor (the sum trick for values below 2^51, the checked conversion above)
    /// is the library's floor: integers, halves, values just beside an integer, both signs,
    /// the edges of the trick's range and far beyond it.
    @Test(arguments: Array(UInt64(1)...4))
    func roundedDownIsTheFloor(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var values: [Double] = [
            0, -0.0, 0.5, -0.5, 1, -1, 0x1p51, -0x1p51, 0x1p51 - 1, -0x1p51 + 1, 0x1p51 - 0.5,
            -(0x1p51 - 0.5), 0x1p60, -0x1p60, 1e-300, -1e-300,
        ]
        for _ in 0..<4000 {
            let whole = Double(Int.random(in: -5_000_000...5_000_000, using: &random))
            let scale: Double = [1.0, 1.0 / 16, 1.0 / 1024, 0x1p-40].randomElement(using: &random) ?? 1
            let near: Double = whole + Double.random(in: -1...1, using: &random) * scale
            values += [whole, whole + 0.5, whole.nextUp, whole.nextDown, near]
        }
        for value in values {
            #expect(InkSampler.roundedDown(value) == Int(value.rounded(.down)), "\(value)")
        }
    }
}
